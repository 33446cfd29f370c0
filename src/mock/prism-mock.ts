// `hsa-fsa-sandbox mock` (npm run mock): serves the bundled contract's examples with Prism
// (stateless mock). --host/-h and --port/-p (or HOST and PORT) override the default 127.0.0.1:4011
// (the sandbox has 4010). Other arguments go to Prism (e.g. -v error).
//
// Prism listens on a private loopback port behind a small front on the public one. The front
// passes every answer through, but for those that break the contract (contract-answers.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exitWhenOrphaned } from '../orphan.js';
import { packageRoot as root } from '../package-root.js';
import { contractAnswer, contractRoutes } from './contract-answers.js';

/** Runs the mock until Prism exits, then exits the process with Prism's code. */
export async function runMock(args: string[]): Promise<void> {
  const { values, tokens } = parseArgs({
    args,
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
  let prismPackage: string;
  try {
    prismPackage = require.resolve('@stoplight/prism-cli/package.json');
  } catch {
    console.error(
      'error: the mock needs Prism, an optional peer of this package: npm install --save-dev @stoplight/prism-cli@5',
    );
    process.exit(2);
  }
  const prism = path.join(path.dirname(prismPackage), (require(prismPackage) as { bin: { prism: string } }).bin.prism);
  const document = path.join(root, 'generated', 'openapi.yaml');
  const routes = contractRoutes(JSON.parse(readFileSync(path.join(root, 'generated', 'openapi.json'), 'utf8')));
  // Prism logs every route it mocks, then every request; warnings and errors are what matter here.
  const verbosity = rest.some((arg) => /^(-v|--verboseLevel)(=|$)/.test(arg)) ? [] : ['-v', 'warn'];

  console.log(`Prism mock of ${path.relative(root, document)}, starting on http://${host}:${port}`);
  console.log('Send x-service-api-key on every call; pick an example with "Prefer: code=400, example=<name>".');
  // Prism's private port: a free loopback port, chosen by the system.
  const prismPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(
    process.execPath,
    [prism, 'mock', '-h', '127.0.0.1', '-p', String(prismPort), ...verbosity, ...rest, document],
    { stdio: 'inherit' },
  );
  const front = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const method = incoming.method ?? 'GET';
      const url = incoming.url ?? '/';
      const sent = forward(
        { host: '127.0.0.1', port: prismPort, method, path: url, headers: incoming.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(parts);
            const status = answer.statusCode ?? 502;
            const instead = contractAnswer(routes, method, url, status, answer.headers, body);
            if (!instead) return outgoing.writeHead(status, answer.headers).end(body);
            const headers: Record<string, unknown> = {
              ...answer.headers,
              ...instead.headers,
              'content-length': Buffer.byteLength(instead.body),
            };
            delete headers['transfer-encoding'];
            outgoing.writeHead(instead.status, headers as Record<string, string>).end(instead.body);
          });
        },
      );
      sent.on('error', (error) =>
        outgoing
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'ServerError', message: `The mock's Prism did not answer: ${error.message}` })),
      );
      sent.end(Buffer.concat(chunks));
    });
  });
  // Prism says nothing at -v warn once it listens: the front listens once Prism's port accepts (a
  // TCP connect, so that the probe is no request for Prism to log), and says so.
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(prismPort, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  void (async () => {
    for (let tries = 0; tries < 600 && child.exitCode === null; tries++) {
      if (await accepts()) return front.listen(Number(port), host, () => console.log(`Ready: http://${host}:${port}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  front.on('error', (error) => {
    console.error(`error: the mock cannot listen on ${host}:${port}: ${error.message}`);
    child.kill('SIGTERM');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  // Run from the CLI, the mock is no child process of it any more: a dead parent still stops Prism.
  exitWhenOrphaned(() => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
