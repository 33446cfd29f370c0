// npm run contract: replays the Arazzo workflows of openapi/workflows/ with Redocly Respect, every
// check on (status, schema, content type, success criteria).
//   npm run contract                                        a sandbox on :memory:, every workflow
//   npm run contract -- --target URL [--api-key KEY]        any environment: the workflows that need
//                                                           no sandbox helper, the others named as skipped
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { target: { type: 'string' }, 'api-key': { type: 'string' } } });
const apiKey = values['api-key'] ?? 'sandbox-dev-key';
const folder = path.join(root, 'openapi', 'workflows');
const all = readdirSync(folder).filter((file) => file.endsWith('.arazzo.yaml')).sort();
// A workflow file that calls a /sandbox/v1/ helper runs against the sandbox only.
const needsSandbox = (file) => readFileSync(path.join(folder, file), 'utf8').includes('$sourceDescriptions.sandbox.');
const files = values.target ? all.filter((file) => !needsSandbox(file)) : all;
if (values.target) for (const file of all.filter(needsSandbox)) console.log(`skipped ${file}: it needs the sandbox's helpers`);

const freePort = () => new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

async function startSandbox() {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--quiet', '--db', ':memory:', '--host', '127.0.0.1', '--port', String(port)], { cwd: root, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) return { base, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('The sandbox did not start');
}

const sandbox = values.target ? undefined : await startSandbox();
const base = values.target ?? sandbox.base;
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const redocly = path.join(root, 'node_modules', '.bin', 'redocly');
const result = spawnSync(redocly, ['respect', ...files.map((file) => path.join(folder, file)), '-S', `contract=${base}`, ...(values.target ? [] : ['-S', `sandbox=${base}`]), '-i', `apiKey=${apiKey}`, '-i', `run=${run}`], {
  cwd: root, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' },
});
sandbox?.stop();
process.exit(result.status ?? 1);
