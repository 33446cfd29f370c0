// The deployment docs/guides/hosting.md describes, run for real: three sandboxes on one PostgreSQL
// database behind nginx, configured by deploy/nginx/sandbox.conf (the guide shows that file, and
// this test checks it does), only its ports changed. Every request through the balancer is
// answered by some sandbox, with the balancer's request id; and a sandbox stopped (SIGTERM) while
// a client keeps calling costs that client no request.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../testkit/contract.js';
import { freshDatabase, startEmbeddedPostgres, type TestPostgres } from '../testkit/postgres.js';
import { freePort, waitForHttp } from '../testkit/processes.js';
import { type SandboxGroup, startSandboxProcesses } from '../testkit/sandbox-processes.js';
import { sessionRequest } from '../testkit/sandbox.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => existsSync(file));
const CONFIG = readFileSync(path.join(repoRoot, 'deploy', 'nginx', 'sandbox.conf'), 'utf8');
const headers = { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' };

let server: TestPostgres;
let group: SandboxGroup;
let nginx: ChildProcess;
let folder: string;
let balancer: string;

beforeAll(async () => {
  if (!NGINX) throw new Error("nginx is not installed: apt-get install nginx-light (Debian's), as .ci/run does");
  server = await startEmbeddedPostgres();
  // As the guide starts them: with the JSON log, which echoes the balancer's request id.
  group = await startSandboxProcesses(3, await freshDatabase(server.url, 'balancer'), {
    timeoutMs: 60_000,
    quiet: false,
    args: ['--log', 'json'],
  });
  folder = mkdtempSync(path.join(tmpdir(), 'sandbox-nginx-'));
  // nginx's workers drop to an unprivileged user when it runs as root: they write here too.
  chmodSync(folder, 0o777);
  const port = await freePort();
  let site = CONFIG.replace('listen 8080;', `listen 127.0.0.1:${port};`);
  group.sandboxes.forEach((sandbox, i) => {
    site = site.replace(`127.0.0.1:${4101 + i}`, new URL(sandbox.baseUrl).host);
  });
  writeFileSync(path.join(folder, 'sandbox.conf'), site);
  const temp = (name: string) => `${name}_temp_path ${path.join(folder, name)};`;
  writeFileSync(
    path.join(folder, 'nginx.conf'),
    `worker_processes 1;
pid ${path.join(folder, 'nginx.pid')};
error_log ${path.join(folder, 'error.log')} warn;
events {}
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  include ${path.join(folder, 'sandbox.conf')};
}
`,
  );
  nginx = spawn(NGINX, ['-p', folder, '-c', path.join(folder, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  balancer = `http://127.0.0.1:${port}`;
  await waitForHttp(`${balancer}/health`, nginx, {
    name: 'nginx',
    timeoutMs: 10_000,
    ready: (response) => response.status === 200,
    output: () =>
      existsSync(path.join(folder, 'error.log')) ? readFileSync(path.join(folder, 'error.log'), 'utf8') : '',
  });
});

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await group?.stop();
  await server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('three sandboxes behind nginx, as the hosting guide sets them up', () => {
  it('the guide shows deploy/nginx/sandbox.conf as it is, which this test runs', () => {
    const guide = readFileSync(path.join(repoRoot, 'docs', 'guides', 'hosting.md'), 'utf8');
    expect(guide).toContain(`\`\`\`nginx\n${CONFIG}\`\`\``);
  });

  it('answers through the balancer, each answer with the request id nginx gave it, and is ready', async () => {
    const created = await fetch(`${balancer}/payments/v1/create_payment_session`, {
      method: 'POST',
      headers,
      body: JSON.stringify(sessionRequest({ idempotency_key: 'through-nginx' })),
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    const { id } = (await created.json()) as { id: string };
    // Read back through whichever sandbox nginx picks, a dozen times: the write is everywhere.
    for (let i = 0; i < 12; i++) {
      const read = await fetch(`${balancer}/payments/v1/payment_session/${id}`, { headers });
      expect(read.status).toBe(200);
    }
    expect((await fetch(`${balancer}/ready`)).status).toBe(200);
    expect((await fetch(`${balancer}/metrics`)).status).toBe(404);
  });

  it('a sandbox stopped while a client keeps calling costs the client no request', async () => {
    const statuses: number[] = [];
    let stopped = false;
    const client = (async () => {
      for (let i = 0; i < 300 && !(stopped && i > 200); i++) {
        const response = await fetch(`${balancer}/payments/v1/payment_sessions?limit=1`, { headers });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    })();
    while (statuses.length < 50) await new Promise((resolve) => setTimeout(resolve, 5));
    await group.sandboxes[1]!.stop();
    expect(await group.sandboxes[1]!.exitCode).toBe(0);
    stopped = true;
    await client;
    console.log(
      `through nginx while one of three sandboxes stopped: ${statuses.length} requests, ${statuses.filter((s) => s !== 200).length} not 200`,
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
