// A --db URL the sandbox cannot use stops the start in one line on standard error that names the
// database without its password, whatever the URL carries: a wrong password, a missing database,
// or query parameters the driver reads (sslmode).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { sandboxEnv } from '../../testkit/sandbox-process.js';

const run = promisify(execFile);

/** The sandbox started on `db`, which must fail: its exit code and its standard error. */
async function failedStart(db: string): Promise<{ code: number; stderr: string }> {
  try {
    await run(
      process.execPath,
      ['--import', 'tsx', path.join('src', 'cli.ts'), 'sandbox', '--quiet', '--port', '0', '--db', db],
      { cwd: repoRoot, env: sandboxEnv(), timeout: 60_000 },
    );
  } catch (error) {
    const failure = error as { code: number; stderr: string };
    return { code: failure.code, stderr: failure.stderr };
  }
  throw new Error(`the sandbox started on ${db}`);
}

/** The run's server URL with `password` and the database `name`, and a query. */
function urlWith(password: string, name: string, query = ''): string {
  const url = new URL(inject('postgresUrl'));
  url.password = encodeURIComponent(password);
  url.pathname = `/${name}`;
  url.search = query;
  return url.href;
}

describe('a --db URL that cannot be used', () => {
  it.each([
    ['a wrong password', urlWith('W0rong:p@ss/w#rd', 'postgres'), 'password authentication failed'],
    ['a database that does not exist', urlWith('W0rong:p@ss/w#rd', 'no_such_database'), ''],
    [
      'sslmode=require against a server without TLS',
      urlWith('W0rong:p@ss/w#rd', 'postgres', '?sslmode=require'),
      'SSL',
    ],
    ['sslmode=prefer', urlWith('W0rong:p@ss/w#rd', 'postgres', '?sslmode=prefer'), 'SSL'],
    ['sslmode=verify-ca without a certificate', urlWith('W0rong:p@ss/w#rd', 'postgres', '?sslmode=verify-ca'), ''],
  ])('%s stops the start in one line, without the password', async (_, db, says) => {
    const { code, stderr } = await failedStart(db);
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --db postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\//);
    expect(lines[0]).toContain(says);
    expect(stderr).not.toMatch(/W0rong|p%40ss|w%23rd/);
  });
});
