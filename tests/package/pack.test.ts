// A partner installs the packed tarball into their own project: the README's quickstart program
// typechecks there (strict, library types checked) and runs against the Prism mock.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contract.js';
import { startPrism, type RunningServer } from '../support/prism.js';

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string };
let work: string;
let consumer: string;
let tarball: string;
let prism: RunningServer;

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

/** The ```ts block that follows the quickstart marker in the README. */
function readmeQuickstart(): string {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const match = /<!-- quickstart[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(readme);
  if (!match?.[1]) throw new Error('README.md has no quickstart block');
  return match[1];
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'contract-pack-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], repoRoot)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(work, packed[0]!.filename);
  consumer = path.join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], consumer);
  writeFileSync(path.join(consumer, 'quickstart.ts'), readmeQuickstart());
  writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true,
        skipLibCheck: false, outDir: 'out', types: ['node'], typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
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
    const listing = run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    expect(listing).toEqual(expect.arrayContaining([
      'package.json', 'README.md', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts', 'dist/client/index.js', 'dist/webhooks/index.js',
      'generated/openapi.json', 'generated/openapi.yaml', 'generated/schema.d.ts',
    ]));
    expect(listing.filter((f) => /^(src|tests|openapi|scripts|node_modules)\//.test(f))).toEqual([]);
  });

  it('resolves every export from the consumer', () => {
    const installed = path.join(consumer, 'node_modules', ...packageJson.name.split('/'));
    expect(readdirSync(installed)).toEqual(expect.arrayContaining(['dist', 'generated', 'package.json']));
    const probe = `
      const client = await import('${packageJson.name}/client');
      const webhooks = await import('${packageJson.name}/webhooks');
      const root = await import('${packageJson.name}');
      const { createRequire } = await import('node:module');
      const document = createRequire(import.meta.url)('${packageJson.name}/openapi.json');
      console.log(JSON.stringify([typeof client.createServiceClient, typeof webhooks.verifyWebhook, typeof root.signWebhook, document.openapi]));`;
    writeFileSync(path.join(consumer, 'probe.mjs'), probe);
    expect(JSON.parse(run('node', ['probe.mjs'], consumer))).toEqual(['function', 'function', 'function', '3.1.0']);
  });

  it('typechecks the README quickstart in the consumer project', () => {
    expect(() => run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], consumer)).not.toThrow();
  }, 60_000);

  it('runs the README quickstart against the mock', () => {
    const output = run('node', ['out/quickstart.js'], consumer, { SERVICE_BASE_URL: prism.baseUrl, SERVICE_API_KEY: 'test-key' });
    expect(output).toContain('send the customer to https://checkout.service.example/checkout/');
    expect(output).toMatch(/^captured cap_\w+$/m);
    expect(output).toContain('dispute 0e6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b needs_response');
  }, 60_000);
});
