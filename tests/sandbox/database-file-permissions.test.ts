// The database's files are private to their owner (store/private-files.ts): whoever reads them can
// derive every listener secret and forge dashboard tokens. The sandbox creates the file, its -wal
// and -shm, 0600 and its folder 0700 whatever the umask, and says at start when a file that exists
// is open to others, without refusing to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createPrivately, exposedFiles, exposureWarning } from '../../src/sandbox/store/private-files.js';
import { repoRoot } from '../support/contract.js';
import { waitForHttp } from '../support/processes.js';
import { SANDBOX_API_KEY, sandboxEnv } from '../support/sandbox-process.js';
import { sessionRequest } from '../support/sandbox.js';

const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'database-files-'));
  folders.push(folder);
  return folder;
}

const modeOf = (file: string) => statSync(file).mode & 0o777;
const TSX = import.meta.resolve('tsx');
const CLI = path.join(repoRoot, 'src', 'cli.ts');

/** `hsa-fsa-sandbox sandbox` in `cwd` under `umask`, as a user starts it; resolves once it answers, with its standard error so far. */
async function startIn(cwd: string, umask: string, port: number, args: string[] = []) {
  // The shell sets the umask, then becomes the sandbox (exec), so that the child's PID is the server's.
  const child = spawn('sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, '--import', TSX, CLI, 'sandbox', '--quiet', '--host', '127.0.0.1', '--port', String(port), ...args], {
    cwd, env: sandboxEnv(), stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.resume();
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/health`, child, { name: 'The sandbox', timeoutMs: 30_000, ready: (r) => r.status === 200, output: () => stderr });
  return { baseUrl, stderr: () => stderr };
}

/** A write, so that SQLite has its -wal and -shm files in use. */
async function createSession(baseUrl: string): Promise<void> {
  const answer = await fetch(`${baseUrl}/payments/v1/create_payment_session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': SANDBOX_API_KEY },
    body: JSON.stringify(sessionRequest({ idempotency_key: 'private-files' })),
  });
  expect(answer.status).toBe(200);
}

describe('the files a sandbox creates', () => {
  it('under umask 000, .sandbox/ is 0700 and sandbox.db, sandbox.db-wal and sandbox.db-shm are 0600, not 0644', async () => {
    const cwd = scratch();
    const { baseUrl } = await startIn(cwd, '000', 4201);
    await createSession(baseUrl);
    const folder = path.join(cwd, '.sandbox');
    expect(modeOf(folder).toString(8)).toBe('700');
    for (const name of ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm']) expect([name, modeOf(path.join(folder, name)).toString(8)]).toEqual([name, '600']);
  });

  it('under umask 000, a --db in folders that do not exist yet makes each of them 0700', async () => {
    const cwd = scratch();
    const { baseUrl } = await startIn(cwd, '000', 4202, ['--db', 'state/nested/qa.db']);
    await createSession(baseUrl);
    expect([modeOf(path.join(cwd, 'state')), modeOf(path.join(cwd, 'state', 'nested'))].map((mode) => mode.toString(8))).toEqual(['700', '700']);
    for (const name of ['qa.db', 'qa.db-wal', 'qa.db-shm']) expect(modeOf(path.join(cwd, 'state', 'nested', name)).toString(8)).toBe('600');
  });

  it('in this process too (its own umask): openDatabase makes the file 0600, and a file that exists keeps its mode', () => {
    const file = path.join(scratch(), 'own.db');
    openDatabase(file).close();
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o640);
    const db = openDatabase(file);
    expect(modeOf(file)).toBe(0o640);
    // SQLite gives the files it creates beside it the database file's mode, whatever it is.
    expect(modeOf(`${file}-wal`)).toBe(0o640);
    db.close();
  });

  it('createPrivately creates the file once, empty, and leaves one that exists as it is', () => {
    const file = path.join(scratch(), 'a', 'b.db');
    createPrivately(file);
    expect({ mode: modeOf(file), size: statSync(file).size }).toEqual({ mode: 0o600, size: 0 });
    writeFileSync(file, 'kept');
    chmodSync(file, 0o644);
    createPrivately(file);
    expect({ mode: modeOf(file), size: statSync(file).size }).toEqual({ mode: 0o644, size: 4 });
  });

  it('createPrivately fails as the file system does when it cannot create the file', () => {
    const folder = scratch();
    closeSync(openSync(path.join(folder, 'plain-file'), 'w'));
    expect(() => createPrivately(path.join(folder, 'plain-file', 'x.db'))).toThrow(/EEXIST|ENOTDIR/);
  });
});

describe('a database file that exists, open to others', () => {
  it('a sandbox.db of mode 0644 starts the sandbox with one line on standard error naming it and the fix', async () => {
    const cwd = scratch();
    const file = path.join(cwd, '.sandbox', 'sandbox.db');
    openDatabase(file).close();
    chmodSync(file, 0o644);
    const { baseUrl, stderr } = await startIn(cwd, '022', 4203);
    await createSession(baseUrl);
    const lines = stderr().split('\n').filter(Boolean);
    expect(lines).toEqual([
      `warning: other users of this machine can read or write the sandbox's database, from which they could derive every listener secret and forge dashboard tokens: ${file} (0644). Make it private: chmod 600 ${file}`,
    ]);
  });

  it('a private file starts without a word on standard error', async () => {
    const cwd = scratch();
    openDatabase(path.join(cwd, '.sandbox', 'sandbox.db')).close();
    const { baseUrl, stderr } = await startIn(cwd, '022', 4204);
    await createSession(baseUrl);
    expect(stderr()).toBe('');
  });

  it('names each of the three files that others may read or write, with its mode, and quotes a path the shell would split', () => {
    const folder = path.join(scratch(), 'my state');
    const file = path.join(folder, 'sandbox.db');
    openDatabase(file).close();
    expect(exposedFiles(file)).toEqual([]);
    expect(exposureWarning(file)).toBeUndefined();
    writeFileSync(`${file}-wal`, '');
    chmodSync(`${file}-wal`, 0o604);
    writeFileSync(`${file}-shm`, '');
    chmodSync(`${file}-shm`, 0o620);
    chmodSync(file, 0o700);
    expect(exposedFiles(file)).toEqual([{ path: `${file}-wal`, mode: 0o604 }, { path: `${file}-shm`, mode: 0o620 }]);
    expect(exposureWarning(file)).toMatch(new RegExp(`: ${escape(file)}-wal \\(0604\\), ${escape(file)}-shm \\(0620\\)\\. Make it private: chmod 600 '${escape(file)}-wal' '${escape(file)}-shm'$`));
    chmodSync(file, 0o611);
    expect(exposedFiles(path.relative(process.cwd(), file)).map((f) => f.path)).toEqual([file, `${file}-wal`, `${file}-shm`]);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
