// Serves the bundled contract's examples with Prism (stateless mock).
// --host/-h and --port/-p (or HOST and PORT) override the default 127.0.0.1:4011 (the sandbox has
// 4010). Other arguments go to Prism (e.g. -v error).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { root } from './lib/tools.mjs';

const { values, tokens } = parseArgs({
  options: { host: { type: 'string', short: 'h' }, port: { type: 'string', short: 'p' } },
  strict: false,
  tokens: true,
});
// Arguments that are not --host or --port, in order, for Prism.
const rest = tokens
  .filter((t) => !(t.kind === 'option' && (t.name === 'host' || t.name === 'port')))
  .flatMap((t) => {
    if (t.kind === 'positional') return [t.value];
    if (t.kind !== 'option') return [];
    if (t.value === undefined) return [t.rawName];
    return t.inlineValue ? [`${t.rawName}=${t.value}`] : [t.rawName, t.value];
  });
const host = String(values.host ?? process.env.HOST ?? '127.0.0.1');
const port = String(values.port ?? process.env.PORT ?? '4011');
// Prism's own bin, wherever npm put it: in this repository, or in the project that installed the package.
const require = createRequire(import.meta.url);
const prismPackage = require.resolve('@stoplight/prism-cli/package.json');
const prism = path.join(path.dirname(prismPackage), require(prismPackage).bin.prism);
const document = path.join(root, 'generated', 'openapi.yaml');

console.log(`Prism mock of ${path.relative(root, document)} on http://${host}:${port}`);
console.log('Send x-service-api-key on every call; pick an example with "Prefer: code=400, example=<name>".');
const child = spawn(process.execPath, [prism, 'mock', '-h', host, '-p', port, ...rest, document], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
