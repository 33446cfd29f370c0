// Serves the bundled contract's examples with Prism (stateless mock).
// HOST and PORT override the default 127.0.0.1:4011 (the sandbox has 4010). Extra arguments go to Prism (e.g. -v error).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './lib/tools.mjs';

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '4011';
const prism = path.join(root, 'node_modules', '.bin', 'prism');
const document = path.join(root, 'generated', 'openapi.yaml');

console.log(`Prism mock of ${path.relative(root, document)} on http://${host}:${port}`);
console.log('Send x-service-api-key on every call; pick an example with "Prefer: code=400, example=<name>".');
const child = spawn(prism, ['mock', '-h', host, '-p', port, ...process.argv.slice(2), document], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
