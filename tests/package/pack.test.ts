// A partner installs the packed tarball into their own project. With the tarball alone the client
// and webhooks work and nothing heavy is installed; the quickstart (examples/quickstart.ts, the
// package guide's text) typechecks there and runs against the Prism mock. With the sandbox's optional
// peers installed too, `npx hsa-fsa-sandbox` serves the sandbox from compiled JavaScript, and the
// quickstart runs against it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { freePort, waitForHttp } from '../../testkit/processes.js';
import { startPrism, type RunningServer } from '../../testkit/prism.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string };
let work: string;
let consumer: string;
let tarball: string;
let prism: RunningServer;

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const QUICKSTART = readFileSync(path.join(repoRoot, 'examples', 'quickstart.ts'), 'utf8');
/** The versions this repository tests with, so that the install is served from npm's cache. */
const devDependencies = (
  JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies;
const SANDBOX_PEERS = ['fastify', 'better-sqlite3', 'ajv', 'ajv-formats'].map(
  (name) => `${name}@${devDependencies[name]}`,
);

/** What `npx hsa-fsa-sandbox …` prints on stderr when it fails ('' when it does not). */
function failureOutput(args: string[]): string {
  try {
    run('npx', ['--no-install', 'hsa-fsa-sandbox', ...args], consumer);
    return '';
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
}

/** The ```ts block that follows the quickstart marker in the package guide. */
function guideQuickstart(): string {
  const guide = readFileSync(path.join(repoRoot, 'docs', 'guides', 'package.md'), 'utf8');
  const match = /<!-- quickstart[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(guide);
  if (!match?.[1]) throw new Error('docs/guides/package.md has no quickstart block');
  return match[1];
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'contract-pack-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], repoRoot)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = path.join(work, packed[0]!.filename);
  consumer = path.join(work, 'consumer');
  mkdirSync(consumer);
  // No allowScripts: better-sqlite3 13 ships its binaries prebuilt, so nothing runs or compiles at install.
  writeFileSync(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], consumer);
  writeFileSync(path.join(consumer, 'quickstart.ts'), QUICKSTART);
  writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        outDir: 'out',
        types: ['node'],
        typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
      },
      files: ['quickstart.ts'],
    }),
  );
  prism = await startPrism();
}, 240_000);

afterAll(async () => {
  await prism?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('contains what a consumer needs, and nothing else', () => {
    const listing = run('tar', ['-tzf', tarball], work)
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    expect(listing).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/client/index.js',
        'dist/webhooks/index.js',
        'generated/openapi.json',
        'generated/openapi.yaml',
        'generated/schema.d.ts',
        'generated/openapi-3.0.json',
        'generated/openapi-3.0.yaml',
      ]),
    );
    expect(listing).toEqual(
      expect.arrayContaining([
        'dist/cli.js',
        'dist/sandbox/server.js',
        'generated/sandbox.json',
        'dist/mock/prism-mock.js',
      ]),
    );
    // The docs site, built at pack time from this version's contract (its builder's tools stay here).
    expect(listing).toEqual(
      expect.arrayContaining([
        'site/index.html',
        'site/reference/index.html',
        'site/guides/quick-start.html',
        'site/try/index.html',
        'site/try/scalar.js',
      ]),
    );
    expect(listing.filter((f) => f.startsWith('site/.'))).toEqual([]);
    expect(listing.filter((f) => /^(src|tests|openapi|examples|node_modules|scripts|build)\//.test(f))).toEqual([]);
  });

  it("keeps the client light: the sandbox's dependencies are not installed with it", () => {
    const installed = readdirSync(path.join(consumer, 'node_modules'));
    expect(installed).not.toContain('fastify');
    expect(installed).not.toContain('better-sqlite3');
  });

  it('runs `trigger` and `listen` with the tarball alone: they talk to a sandbox over HTTP', () => {
    const list = run('npx', ['--no-install', 'hsa-fsa-sandbox', 'trigger', '--list'], consumer);
    expect(list).toMatch(/^dispute\.closed +the same, then resolved won$/m);
    expect(
      failureOutput(['listen', '--forward-to', 'http://localhost:3000/webhooks', '--events', 'charge.succeeded']),
    ).toMatch(
      /^error: unknown event type "charge\.succeeded" in --events; the known ones: \*, dispute\.\*, payment_session_complete, /,
    );
    expect(failureOutput(['trigger', 'dispute.created', '--sandbox', 'http://127.0.0.1:9'])).toMatch(
      /^error: the sandbox at http:\/\/127\.0\.0\.1:9 is not reachable/m,
    );
  }, 60_000);

  it('says which peers to install when the sandbox is started without them', () => {
    const result = failureOutput(['sandbox', '--db', ':memory:']);
    expect(result).toContain('npm install --save-dev fastify@5 better-sqlite3@13 ajv@8 ajv-formats@3');
    const mock = failureOutput(['mock']);
    expect(mock).toContain('npm install --save-dev @stoplight/prism-cli@5');
    expect(mock).not.toMatch(/at \S+ \(|Require stack/);
  }, 60_000);

  it('copies the docs it ships with `docs`, since their builder is not part of the package', () => {
    expect(run('npx', ['--no-install', 'hsa-fsa-sandbox', 'docs', '--out', 'our-docs'], consumer)).toContain(
      'Copied the docs of this version into our-docs',
    );
    expect(readdirSync(path.join(consumer, 'our-docs'))).toEqual(
      expect.arrayContaining(['index.html', 'guides', 'reference', 'try']),
    );
    expect(readFileSync(path.join(consumer, 'our-docs', 'index.html'), 'utf8')).toContain('quick-start.html');
  }, 60_000);

  it("is the package guide's quickstart, word for word", () => {
    expect(guideQuickstart()).toBe(QUICKSTART);
  });

  it('resolves every export from the consumer', () => {
    const installed = path.join(consumer, 'node_modules', ...packageJson.name.split('/'));
    expect(readdirSync(installed)).toEqual(expect.arrayContaining(['dist', 'generated', 'package.json']));
    const probe = `
      const client = await import('${packageJson.name}/client');
      const webhooks = await import('${packageJson.name}/webhooks');
      const root = await import('${packageJson.name}');
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const document = require('${packageJson.name}/openapi.json');
      const companion = require('${packageJson.name}/openapi-3.0.json');
      const { readFileSync } = await import('node:fs');
      const companionYaml = readFileSync(require.resolve('${packageJson.name}/openapi-3.0.yaml'), 'utf8').split('\\n')[0];
      console.log(JSON.stringify([typeof client.createServiceClient, typeof webhooks.verifyWebhook, typeof root.signWebhook, document.openapi, companion.openapi, companionYaml, process.version]));`;
    writeFileSync(path.join(consumer, 'probe.mjs'), probe);
    // On the Node that runs this test: the pinned line in npm test, the other one in npm run test:lts.
    expect(JSON.parse(run('node', ['probe.mjs'], consumer))).toEqual([
      'function',
      'function',
      'function',
      '3.1.0',
      '3.0.3',
      'openapi: 3.0.3',
      process.version,
    ]);
  });

  it('typechecks the quickstart in the consumer project', () => {
    expect(() =>
      run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], consumer),
    ).not.toThrow();
  }, 60_000);

  it('runs the quickstart against the mock', () => {
    const output = run('node', ['out/quickstart.js'], consumer, {
      SERVICE_BASE_URL: prism.baseUrl,
      SERVICE_API_KEY: 'test-key',
    });
    expect(output).toContain('send the customer to https://checkout.service.example/checkout/');
    expect(output).not.toContain('the customer completed the checkout');
    expect(output).toMatch(/^captured cap_\w+$/m);
    expect(output).toContain('dispute 0e6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b needs_response');
  }, 60_000);

  it('serves the sandbox through its bin, from compiled JavaScript, and the quickstart runs against it', async () => {
    const install = spawnSync(
      'npm',
      ['install', '--save-dev', ...SANDBOX_PEERS, '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(install.status, install.stderr).toBe(0);
    // Nothing to build or allow: no install script, no node-gyp, and no engine this Node fails.
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/install-scripts|gyp|EBADENGINE/);
    const port = await freePort();
    const sandbox: ChildProcess = spawn(
      'npx',
      ['--no-install', 'hsa-fsa-sandbox', 'sandbox', '--port', String(port), '--db', ':memory:', '--quiet'],
      { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    sandbox.stdout!.on('data', (chunk) => (output += chunk));
    sandbox.stderr!.on('data', (chunk) => (output += chunk));
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`, sandbox, {
        name: 'npx hsa-fsa-sandbox',
        timeoutMs: 30_000,
        output: () => output,
      });
      // It says which Node it runs on: the one that runs this test, found on PATH by npx.
      expect(output).toContain(`Runtime:   Node ${process.version} (`);
      // The installed bin is compiled JavaScript: no TypeScript loader in the chain.
      expect(readFileSync(path.join(consumer, 'node_modules', '.bin', 'hsa-fsa-sandbox'), 'utf8')).toMatch(
        /^#!\/usr\/bin\/env node/,
      );
      const quickstart = run('node', ['out/quickstart.js'], consumer, {
        SERVICE_BASE_URL: `http://127.0.0.1:${port}`,
        SERVICE_API_KEY: 'sandbox-dev-key',
      });
      expect(quickstart).toMatch(
        new RegExp(`send the customer to http://127\\.0\\.0\\.1:${port}/checkout/[0-9a-f-]{36}`),
      );
      expect(quickstart).toContain('the customer completed the checkout: 200');
      expect(quickstart).toMatch(/^captured cap_\w+$/m);
      // The docs: the guides, the reference and the try-it console, served from the package.
      expect(output).toContain(`Docs:      http://127.0.0.1:${port}/docs/ (guides, the reference`);
      for (const page of ['', 'guides/quick-start.html', 'reference/', 'try/']) {
        const response = await fetch(`http://127.0.0.1:${port}/docs/${page}`);
        expect(response.status, page).toBe(200);
        expect(response.headers.get('content-type'), page).toMatch(/^text\/html/);
        expect(await response.text(), page).not.toContain('The docs are not built');
      }
      expect((await fetch(`http://127.0.0.1:${port}/docs/try/scalar.js`)).status).toBe(200);
      // The dashboard's script was bundled at pack time: the consumer has no esbuild to bundle it with.
      const dashboard = await fetch(`http://127.0.0.1:${port}/dashboard/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toMatch(/<script>"use strict";\n\(\(\) => \{/);
    } finally {
      sandbox.kill('SIGTERM');
    }
  }, 240_000);
});
