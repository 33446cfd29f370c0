// `hsa-fsa-sandbox keys` on a database file: what it prints for each command (a key made is shown
// once; a listing never shows one), and the mistakes it refuses as usage errors before any
// database is opened.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/sandbox/cli/keys.js';
import { databaseLocation } from '../../src/sandbox/database-location.js';
import { openStore } from '../../src/sandbox/server.js';

const folder = mkdtempSync(path.join(tmpdir(), 'keys-command-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let n = 0;
const freshPath = () => path.join(folder, `keys-${n++}.db`);
/** An empty database, as a sandbox leaves it when it first starts on a file. */
async function newDb(): Promise<string> {
  const file = freshPath();
  await (await openStore(databaseLocation(file), {})).close();
  return file;
}

async function run(db: string, ...args: string[]): Promise<string[]> {
  const lines: string[] = [];
  await keys([...args, '--db', db], { out: (line) => lines.push(line) });
  return lines;
}
const json = async (db: string, ...args: string[]) => JSON.parse((await run(db, ...args, '--json')).join('\n'));

describe('keys', () => {
  it('create shows the key once; list names it by id, channel and last four characters, never the key', async () => {
    const db = await newDb();
    const created = await run(db, 'create', '--channel', 'partner-a');
    expect(created[0]).toMatch(/^Created key_[0-9a-f]{16}, for channel partner-a:$/);
    const key = created[1]!.trim();
    expect(key).toMatch(/^sk_sandbox_/);
    expect(created[2]).toBe('Shown this once: the database keeps only its hash. Send it as x-service-api-key.');
    expect(created).toHaveLength(3);
    const listed = await run(db, 'list');
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(`channel partner-a  …${key.slice(-4)}  active`);
    expect(listed.join('\n')).not.toContain(key);
  });

  it('list --channel keeps to the channel, and --json gives each key its state', async () => {
    const db = await newDb();
    await run(db, 'create', '--channel', 'a');
    const b = await json(db, 'create', '--channel', 'b');
    await run(db, 'revoke', b.id);
    expect(
      (await json(db, 'list', '--channel', 'b')).map((k: { id: string; state: string }) => [k.id, k.state]),
    ).toEqual([[b.id, 'revoked']]);
    expect(await run(db, 'list', '--channel', 'c')).toEqual(['No key of channel c.']);
    expect(await run(await newDb(), 'list')).toEqual(['No managed key.']);
  });

  it('rotate makes a successor and says until when the old key serves; revoke says it is refused from now on', async () => {
    const db = await newDb();
    const made = await json(db, 'create', '--channel', 'partner-a');
    const rotated = await run(db, 'rotate', made.id, '--overlap', '120');
    expect(rotated[0]).toMatch(
      new RegExp(`^Rotated ${made.id}: key_[0-9a-f]{16} replaces it, for channel partner-a:$`),
    );
    expect(rotated[3]).toMatch(new RegExp(`^${made.id} stays valid until \\d{4}-.*Z; move every client`));
    expect(await run(db, 'revoke', made.id)).toEqual([
      `Revoked ${made.id} (for channel partner-a): refused from now on, by every sandbox on this database.`,
    ]);
  });

  it('create --admin makes a key of no channel, which list --admin and list show as admin', async () => {
    const db = await newDb();
    const made = await run(db, 'create', '--admin');
    expect(made[0]).toMatch(/^Created key_[0-9a-f]{16}, an admin key:$/);
    expect(made[2]).toBe(
      "Shown this once: the database keeps only its hash. It opens the admin helpers and /metrics, sent as Authorization: Bearer <key>; it is no channel's key.",
    );
    expect(made).toHaveLength(3);
    await run(db, 'create', '--channel', 'a');
    const admins = await json(db, 'list', '--admin');
    expect(admins.map((k: { channel: string | null }) => k.channel)).toEqual([null]);
    expect((await run(db, 'list')).map((line) => line.split('  ')[1])).toEqual(['admin', 'channel a']);
    expect(await run(await newDb(), 'list', '--admin')).toEqual(['No admin key.']);
  });

  it('rotate --overlap 0 says the old key has ended', async () => {
    const db = await newDb();
    const made = await json(db, 'create', '--channel', 'partner-a');
    const rotated = await run(db, 'rotate', made.id, '--overlap', '0');
    expect(rotated[3]).toBe(`${made.id} has ended: it is refused from now on.`);
  });

  it('list --json is the whole list as one line of JSON, however long, and every character past ASCII escaped', async () => {
    const db = await newDb();
    for (let i = 0; i < 40; i++) await run(db, 'create', '--channel', `channel-${i}`);
    const lines = await run(db, 'list', '--json');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeGreaterThan(2000);
    expect(JSON.parse(lines[0]!)).toHaveLength(40);
  });

  it('list, rotate and revoke refuse a database that is not there, and make none', async () => {
    const db = freshPath();
    for (const args of [['list'], ['rotate', 'key_x'], ['revoke', 'key_x']])
      await expect(run(db, ...args)).rejects.toThrow(/^--db .*keys-\d+\.db: no database there\. Check the path/);
    expect(existsSync(db)).toBe(false);
  });

  it('create makes the database in a folder that exists, as the first key comes before any sandbox, and no folder', async () => {
    const db = freshPath();
    await run(db, 'create', '--admin');
    expect(await run(db, 'list')).toHaveLength(1);
    const nowhere = path.join(folder, 'nowhere', 'x.db');
    await expect(run(nowhere, 'create', '--admin')).rejects.toThrow(
      /^--db .*x\.db: no folder .*nowhere\. Check the path\.$/,
    );
    expect(existsSync(path.join(folder, 'nowhere'))).toBe(false);
  });

  it.each([['create', '--admin'], ['list'], ['revoke', 'key_x']])(
    'keys %s refuses a database in memory',
    async (...args) => {
      await expect(run(':memory:', ...args)).rejects.toThrow(
        /^--db :memory:: keys are made in the database file a sandbox serves, not in memory$/,
      );
    },
  );

  it('an unknown key id is an error that names it', async () => {
    await expect(run(await newDb(), 'revoke', 'key_nope')).rejects.toThrow('No API key "key_nope".');
  });

  it.each([
    [[], /^keys create --channel NAME\|--admin \| keys list/],
    [['frob'], /^unknown keys command "frob"/],
    [['create'], /^keys create needs --channel NAME or --admin/],
    [['create', '--admin', '--channel', 'a'], /^give --channel or --admin, not both/],
    [['list', '--admin', '--channel', 'a'], /^give --channel or --admin, not both/],
    [['revoke', 'key_x', '--admin'], /^--admin is for keys create and keys list/],
    [['create', '--channel', 'two words'], /^--channel "two words": a channel is 1 to 64/],
    [['create', 'key_x', '--channel', 'a'], /^keys create takes no key id/],
    [['rotate'], /^keys rotate takes one key id/],
    [['revoke', 'a', 'b'], /^keys revoke takes one key id/],
    [
      ['rotate', 'key_x', '--overlap', 'soon'],
      /^--overlap is a whole number of seconds from 0 to 2592000 \(30 days\), not "soon"/,
    ],
    [
      ['rotate', 'key_x', '--overlap', '99999999999999999999999'],
      /^--overlap is a whole number of seconds .*"99999999999999999999999"/,
    ],
    [['rotate', 'key_x', '--overlap=-1'], /^--overlap is a whole number of seconds/],
    [['list', '--channel', ''], /^--channel "": a channel is 1 to 64/],
    [['list', '--channel', 'x\ny'], /^--channel "x\\ny": a channel is 1 to 64/],
    [['revoke', 'key_x', '--overlap', '5'], /^--overlap is for keys rotate/],
    [['revoke', 'key_x', '--channel', 'a'], /^--channel is for keys create and keys list/],
    [['list', '--colour'], /^Unknown option '--colour'/],
  ])('keys %j is a usage error, and opens no database', async (args, message) => {
    const db = freshPath();
    await expect(run(db, ...args)).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringMatching(message),
    });
    expect(existsSync(db)).toBe(false);
  });
});
