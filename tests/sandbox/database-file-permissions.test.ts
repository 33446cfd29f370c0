// The database's files are private to their owner (store/private-files.ts): whoever reads them can
// derive every listener secret and forge dashboard tokens. The sandbox creates the file, its -wal
// and -shm, 0600 and its folder 0700 whatever the umask, and says at start when a file that exists
// is open to others, without refusing to start. Through a symbolic link, the files are those SQLite
// writes: the link's target, and -wal and -shm beside it. A --db that is empty, a folder, or in a
// "folder" that is a file is refused in one line saying what --db takes.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import {
  checkedDatabasePath,
  createPrivately,
  databasePath,
  exposedFiles,
  exposureWarning,
} from '../../src/sandbox/store/private-files.js';
import { repoRoot } from '../../testkit/contract.js';
import { waitForHttp } from '../../testkit/processes.js';
import { SANDBOX_API_KEY, sandboxEnv } from '../../testkit/sandbox-process.js';
import { sessionRequest } from '../../testkit/sandbox.js';

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
  const child = spawn(
    'sh',
    [
      '-c',
      `umask ${umask} && exec "$0" "$@"`,
      process.execPath,
      '--import',
      TSX,
      CLI,
      'sandbox',
      '--quiet',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      ...args,
    ],
    {
      cwd,
      env: sandboxEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.resume();
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/health`, child, {
    name: 'The sandbox',
    timeoutMs: 30_000,
    ready: (r) => r.status === 200,
    output: () => stderr,
  });
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
    for (const name of ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm'])
      expect([name, modeOf(path.join(folder, name)).toString(8)]).toEqual([name, '600']);
  });

  it('under umask 000, a --db in folders that do not exist yet makes each of them 0700', async () => {
    const cwd = scratch();
    const { baseUrl } = await startIn(cwd, '000', 4202, ['--db', 'state/nested/qa.db']);
    await createSession(baseUrl);
    expect(
      [modeOf(path.join(cwd, 'state')), modeOf(path.join(cwd, 'state', 'nested'))].map((mode) => mode.toString(8)),
    ).toEqual(['700', '700']);
    for (const name of ['qa.db', 'qa.db-wal', 'qa.db-shm'])
      expect(modeOf(path.join(cwd, 'state', 'nested', name)).toString(8)).toBe('600');
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
    expect(() => createPrivately(path.join(folder, `${'x'.repeat(300)}.db`))).toThrow(/ENAMETOOLONG/);
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
    // Read once SQLite opened it: the -wal and -shm it made beside it took the file's mode.
    expect(lines).toEqual([
      "warning: other users of this machine can read or write the sandbox's database, from which they could derive every " +
        `listener secret and forge dashboard tokens: ${file} (0644), ${file}-wal (0644), ${file}-shm (0644). ` +
        `Make it private: chmod 600 ${file} ${file}-wal ${file}-shm`,
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
    expect(exposedFiles(file)).toEqual([
      { path: `${file}-wal`, mode: 0o604 },
      { path: `${file}-shm`, mode: 0o620 },
    ]);
    expect(exposureWarning(file)).toMatch(
      new RegExp(
        `: ${escapeRegExp(file)}-wal \\(0604\\), ${escapeRegExp(file)}-shm \\(0620\\)\\. Make it private: chmod 600 '${escapeRegExp(file)}-wal' '${escapeRegExp(file)}-shm'$`,
      ),
    );
    chmodSync(file, 0o611);
    expect(exposedFiles(path.relative(process.cwd(), file)).map((f) => f.path)).toEqual([
      file,
      `${file}-wal`,
      `${file}-shm`,
    ]);
  });
});

describe('a database path that is a link, or no file', () => {
  /** The sandbox under umask 000 until it answers or exits; its standard error and exit code (null while it runs). */
  async function start(cwd: string, db: string, port: number) {
    const child = spawn(
      'sh',
      [
        '-c',
        'umask 000 && exec "$0" "$@"',
        process.execPath,
        '--import',
        TSX,
        CLI,
        'sandbox',
        '--quiet',
        '--port',
        String(port),
        '--db',
        db,
      ],
      {
        cwd,
        env: sandboxEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const ready = new Promise<void>((resolve) =>
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Sandbox listening')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const code = await Promise.race([
      ready.then(() => null),
      exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
    ]);
    return { stderr: () => stderr, code, baseUrl: `http://127.0.0.1:${port}` };
  }

  it('a --db link to a file not there yet: the file SQLite creates is 0600, or the start says it is not', async () => {
    const folder = scratch();
    const target = path.join(folder, 'target.db');
    symlinkSync(target, path.join(folder, 'link.db'));
    const { stderr, baseUrl } = await start(folder, path.join(folder, 'link.db'), 4700);
    expect(lstatSync(path.join(folder, 'link.db')).isSymbolicLink()).toBe(true);
    expect(existsSync(target)).toBe(true);
    const mode = statSync(target).mode & 0o777;
    if (mode !== 0o600) expect(stderr()).toContain('warning: other users of this machine');
    // It is 0600, with the -wal and -shm SQLite writes beside it, and nothing was said.
    await createSession(baseUrl);
    for (const name of ['target.db', 'target.db-wal', 'target.db-shm'])
      expect([name, modeOf(path.join(folder, name))]).toEqual([name, 0o600]);
    expect(existsSync(path.join(folder, 'link.db-wal'))).toBe(false);
    expect(stderr()).toBe('');
  });

  it.each([
    ['a folder', 'folder'],
    ['an empty path', ''],
  ])('--db %s: no advice to chmod 600 a folder, but one line saying what --db takes', async (_what, db) => {
    const cwd = scratch();
    mkdirSync(path.join(cwd, 'folder'));
    const { stderr, code } = await start(cwd, db === '' ? '' : path.join(cwd, db), 4701);
    expect(stderr()).not.toMatch(/chmod 600/);
    expect(code).toBe(1);
    const takes = "it takes the path of the database's file (created when missing), or :memory:";
    expect(stderr()).toBe(
      db === ''
        ? `error: --db is empty: ${takes}\n`
        : `error: --db ${path.join(cwd, db)} is a folder: ${takes}, such as ${path.join(cwd, db, 'sandbox.db')}\n`,
    );
  });

  it('--db in a "folder" that is a file says which is a file', async () => {
    const cwd = scratch();
    writeFileSync(path.join(cwd, 'hostname'), 'x\n');
    const db = path.join(cwd, 'hostname', 'x.db');
    const { stderr, code } = await start(cwd, db, 4702);
    expect(code).toBe(1);
    expect(stderr()).toBe(
      `error: --db ${db}: ${path.join(cwd, 'hostname')} is a file, not a folder: it takes the path ` +
        "of the database's file (created when missing), or :memory:\n",
    );
  });

  it('an existing file behind a link, open to others, is named as the file it is, with its -wal and -shm', async () => {
    const folder = scratch();
    const target = path.join(folder, 'real', 'target.db');
    openDatabase(target).close();
    chmodSync(target, 0o644);
    symlinkSync(path.join('real', 'target.db'), path.join(folder, 'link.db'));
    const { stderr } = await start(folder, 'link.db', 4703);
    expect(stderr()).toMatch(
      new RegExp(
        `tokens: ${escapeRegExp(target)} \\(0644\\), ${escapeRegExp(target)}-wal \\(0644\\), ${escapeRegExp(target)}-shm \\(0644\\)\\.`,
      ),
    );
  });

  it('databasePath follows every link, relative or absolute, through linked folders, to a file that may not exist', () => {
    const folder = realpathSync(scratch());
    mkdirSync(path.join(folder, 'real'));
    symlinkSync('real', path.join(folder, 'dir-link'));
    symlinkSync(path.join(folder, 'dir-link', 'end.db'), path.join(folder, 'b.db'));
    symlinkSync('b.db', path.join(folder, 'a.db'));
    expect(databasePath(path.join(folder, 'a.db'))).toBe(path.join(folder, 'real', 'end.db'));
    expect(databasePath(path.join(folder, 'dir-link', 'plain.db'))).toBe(path.join(folder, 'real', 'plain.db'));
    expect(databasePath(path.join(folder, 'new', 'deep.db'))).toBe(path.join(folder, 'new', 'deep.db'));
    symlinkSync('loop-b.db', path.join(folder, 'loop-a.db'));
    symlinkSync('loop-a.db', path.join(folder, 'loop-b.db'));
    expect(() => databasePath(path.join(folder, 'loop-a.db'))).toThrow(
      `--db ${path.join(folder, 'loop-a.db')} is a chain of more than 40 symbolic links`,
    );
  });

  it('checkedDatabasePath refuses what is no regular file, and a file as a folder however deep', () => {
    const folder = realpathSync(scratch());
    writeFileSync(path.join(folder, 'file'), '');
    expect(checkedDatabasePath(path.join(folder, 'file'))).toBe(path.join(folder, 'file'));
    expect(checkedDatabasePath(path.join(folder, 'new', 'x.db'))).toBe(path.join(folder, 'new', 'x.db'));
    expect(() => checkedDatabasePath('/dev/null')).toThrow('--db /dev/null is not a regular file: it takes');
    expect(() => checkedDatabasePath(path.join(folder, 'file', 'a', 'b', 'x.db'))).toThrow(
      `: ${path.join(folder, 'file')} is a file, not a folder`,
    );
    symlinkSync(folder, path.join(folder, 'to-folder'));
    expect(() => checkedDatabasePath(path.join(folder, 'to-folder'))).toThrow('is a folder');
  });

  it('exposedFiles names regular files only: a folder named like -wal is no database file', () => {
    const file = path.join(scratch(), 'x.db');
    openDatabase(file).close();
    mkdirSync(`${file}-shm`, { recursive: true, mode: 0o777 });
    chmodSync(`${file}-shm`, 0o777);
    expect(exposedFiles(file)).toEqual([]);
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
