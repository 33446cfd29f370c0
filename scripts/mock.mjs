// Serves the bundled contract's examples with Prism (stateless mock).
// --host/-h and --port/-p (or HOST and PORT) override the default 127.0.0.1:4011 (the sandbox has
// 4010). Other arguments go to Prism (e.g. -v error).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
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
let prismPackage;
try {
  prismPackage = require.resolve('@stoplight/prism-cli/package.json');
} catch {
  console.error('error: the mock needs Prism, an optional peer of this package: npm install --save-dev @stoplight/prism-cli@5');
  process.exit(2);
}
const prism = path.join(path.dirname(prismPackage), require(prismPackage).bin.prism);
const document = path.join(root, 'generated', 'openapi.yaml');
// Prism logs every route it mocks, then every request; warnings and errors are what matter here.
const verbosity = rest.some((arg) => /^(-v|--verboseLevel)(=|$)/.test(arg)) ? [] : ['-v', 'warn'];

console.log(`Prism mock of ${path.relative(root, document)}, starting on http://${host}:${port}`);
console.log('Send x-service-api-key on every call; pick an example with "Prefer: code=400, example=<name>".');
const child = spawn(process.execPath, [prism, 'mock', '-h', host, '-p', port, ...verbosity, ...rest, document], {
  stdio: 'inherit',
});
// Prism says nothing at -v warn once it listens: say it, as soon as the port accepts (a TCP connect,
// so that the probe is no request for Prism to log).
const accepts = () => new Promise((resolve) => {
  const socket = connect(Number(port), host, () => (socket.end(), resolve(true)));
  socket.on('error', () => resolve(false));
});
void (async () => {
  for (let tries = 0; tries < 600 && child.exitCode === null; tries++) {
    if (await accepts()) return console.log(`Ready: http://${host}:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
