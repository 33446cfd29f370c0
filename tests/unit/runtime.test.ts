// The runtimes: the Node the tests run on, the Node every process they start runs on, and the
// `engines` of every installed package, checked against the lines this project supports. npm checks
// `engines` against the Node that runs npm itself, which on a machine whose system Node is 20 is not
// the one this project runs on, so the project's .npmrc keeps npm's warnings quiet and this file
// checks instead: where npm only warned, it fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE, unsupportedNodeReason } from '../../src/runtime.js';
import { repoRoot } from '../../testkit/contract.js';

const readJson = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
const packageJson = readJson('package.json') as {
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const toolchain = readJson('toolchain.json') as { node: { other_lts: string } };
const lockfile = readJson('package-lock.json') as {
  packages: Record<
    string,
    {
      engines?: { node?: string };
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      optional?: boolean;
    }
  >;
};

const PINNED = packageJson.devDependencies.node!;
const OTHER_LTS = toolchain.node.other_lts;
/** The lines this project claims: Node 22 from 22.14.0, which better-sqlite3 13 needs, and Node 24. */
const SUPPORTED_LINES = '^22.14.0 || ^24.0.0';

describe('the runtime', () => {
  it('is the pinned Node (npm test) or the other LTS line (npm run test:lts)', () => {
    expect([`v${PINNED}`, `v${OTHER_LTS}`]).toContain(process.version);
  });

  it('pins one Node 24 and one Node 22, both inside engines', () => {
    expect([semver.major(PINNED), semver.major(OTHER_LTS)]).toEqual([24, 22]);
    for (const version of [PINNED, OTHER_LTS])
      expect(semver.satisfies(version, packageJson.engines.node), version).toBe(true);
    expect(semver.subset(SUPPORTED_LINES, packageJson.engines.node)).toBe(true);
  });

  it('is the Node that every process a test starts finds first: by name, and behind a #! line', () => {
    const versionOf = (command: string, args: string[]) =>
      spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
    expect(versionOf('node', ['-p', 'process.version'])).toBe(process.version);
    expect(versionOf(path.join(repoRoot, 'node_modules', '.bin', 'tsx'), ['-e', 'console.log(process.version)'])).toBe(
      process.version,
    );
  });

  it('is one the tools have no end-of-life notice for', () => {
    const redocly = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'redocly'), ['--version'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    expect(redocly.status).toBe(0);
    expect(`${redocly.stdout}${redocly.stderr}`).not.toMatch(/Deprecation|support is ending|╔/);
  });
});

describe('unsupportedNodeReason', () => {
  it.each(['v20.20.2', 'v22.13.1', '18.20.0', 'v21.7.3'])('refuses %s, and says what to do', (version) => {
    const reason = unsupportedNodeReason(version);
    expect(reason).toBe(
      `hsa-fsa-sandbox needs Node 22.14 or newer (this is Node v${version.replace(/^v/, '')}): ` +
        'install Node 22 or 24, or run it through npm in a clone of its repository (npm start, npm test: npm ci installs Node 24 there, the `node` devDependency).',
    );
    // One line: what the CLI prints after `error: `.
    expect(reason).not.toContain('\n');
  });

  it.each(['v22.14.0', 'v22.23.3', 'v24.0.0', 'v24.21.0', 'v26.1.0', '23.0.0'])('accepts %s', (version) => {
    expect(unsupportedNodeReason(version)).toBeUndefined();
  });

  it('reads the minimum from engines, and refuses a form it cannot read', () => {
    expect(SUPPORTED_NODE).toBe(packageJson.engines.node);
    expect(unsupportedNodeReason('v22.20.0', '>=22.21.0')).toContain(
      'needs Node 22.21 or newer (this is Node v22.20.0)',
    );
    expect(unsupportedNodeReason('v22.20.0', '>=22.20.1')).toContain('needs Node 22.20.1 or newer');
    expect(() => unsupportedNodeReason('v24.0.0', '^22 || ^24')).toThrow(
      'engines.node must read ">=MAJOR.MINOR.PATCH", not "^22 || ^24"',
    );
  });

  it('stops the CLI with that message, before the sandbox loads, on an older Node', () => {
    const pretend20 = 'data:text/javascript,Object.defineProperty(process, "version", { value: "v20.20.2" })';
    const result = spawnSync(
      process.execPath,
      ['--import', pretend20, '--import', 'tsx', 'src/cli.ts', 'sandbox', '--db', ':memory:', '--port', '0'],
      { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^error: hsa-fsa-sandbox needs Node 22\.14 or newer \(this is Node v20\.20\.2\): install Node 22 or 24, or run it through npm in a clone/m,
    );
    expect(result.stdout).not.toContain('Sandbox listening');
  });
});

/** The folder npm installed `name` into, for a package installed at `from`: its own node_modules, then each parent's. */
function resolveInstalled(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.includes('node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lockfile.packages[candidate]) return candidate;
    if (!dir) return undefined;
  }
}

/** Every installed package that `roots` need at run time, by lockfile path. */
function closure(roots: string[]): Set<string> {
  const found = new Set<string>();
  const visit = (location: string | undefined) => {
    if (!location || found.has(location)) return;
    found.add(location);
    const entry = lockfile.packages[location]!;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.peerDependencies }))
      visit(resolveInstalled(location, name));
  };
  for (const name of roots) visit(resolveInstalled('', name));
  return found;
}

const installed = Object.entries(lockfile.packages).filter(
  ([location]) => location !== '' && existsSync(path.join(repoRoot, location, 'package.json')),
);

describe('engines of the installed packages', () => {
  it.each([PINNED, OTHER_LTS])('every installed package runs on Node %s', (version) => {
    const refused = installed.filter(
      ([, entry]) => entry.engines?.node && !semver.satisfies(version, entry.engines.node, { includePrerelease: true }),
    );
    expect(refused.map(([location, entry]) => `${location} wants ${entry.engines!.node}`)).toEqual([]);
  });

  it('what the published package and its sandbox need at run time runs on every supported line', () => {
    const runtime = closure([...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.peerDependencies)]);
    expect(runtime.has('node_modules/better-sqlite3')).toBe(true);
    const narrower = [...runtime].filter((location) => {
      const range = lockfile.packages[location]!.engines?.node;
      return range !== undefined && !semver.subset(SUPPORTED_LINES, range);
    });
    expect(narrower.map((location) => `${location} wants ${lockfile.packages[location]!.engines!.node}`)).toEqual([]);
  });

  it('the sandbox peers on better-sqlite3 13, which ships its binaries prebuilt: nothing compiles', () => {
    expect(packageJson.peerDependencies['better-sqlite3']).toBe('^13.0.0');
    expect(semver.major(packageJson.devDependencies['better-sqlite3']!)).toBe(13);
    const buildsOnInstall = installed.filter(([location]) => {
      const manifest = JSON.parse(readFileSync(path.join(repoRoot, location, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
        gypfile?: boolean;
      };
      const gyp = manifest.gypfile !== false && existsSync(path.join(repoRoot, location, 'binding.gyp'));
      return (
        gyp ||
        ['preinstall', 'install', 'postinstall'].some((hook) =>
          /node-gyp|prebuild|cmake-js/.test(manifest.scripts?.[hook] ?? ''),
        )
      );
    });
    expect(buildsOnInstall.map(([location]) => location)).toEqual([]);
  });
});
