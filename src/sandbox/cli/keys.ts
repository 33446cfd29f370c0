// `hsa-fsa-sandbox keys`: an operator's API keys, managed on the database itself (--db, as the
// sandbox takes it), while sandboxes run on it or before the first starts. Every sandbox on the
// database serves a new key, and refuses a revoked one, from its next request: no restart.
//   keys create --channel NAME     a new key for the channel, shown this once
//   keys create --admin            a new admin key: the admin helpers and /metrics, no channel
//   keys list [--channel NAME|--admin]   the keys (never the keys themselves: their last four characters)
//   keys rotate KEY_ID [--overlap SECONDS]   a new key; the old one stays valid for the overlap
//   keys revoke KEY_ID             ends the key at once
// --json prints what it did as JSON, for a script.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  ADMIN_SCOPE,
  channelNameProblem,
  channelScope,
  DEFAULT_OVERLAP_SECONDS,
  type KeyScope,
  keyState,
  MAX_OVERLAP_SECONDS,
  type ManagedKey,
  overlapProblem,
} from '../domain/api-keys.js';
import { DatabaseLocationError, databaseLocation } from '../database-location.js';
import { Refusal } from '../domain/errors.js';
import { createKey, type MadeKey, revokeKey, rotateKey } from '../keys/manage.js';
import { openStore } from '../server.js';
import type { SandboxStore } from '../store/store.js';
import { parseOptions, UsageError } from './target.js';
import { printable, terminalSafeJson } from './terminal-text.js';

export interface KeysIo {
  out: (line: string) => void;
}

const defaultIo: KeysIo = { out: (line) => console.log(line) };

const USAGE =
  'keys create --channel NAME|--admin | keys list [--channel NAME|--admin] | keys rotate KEY_ID [--overlap SECONDS] | ' +
  'keys revoke KEY_ID, each with [--db FILE|postgres://…] [--json]';

/** How many keys a listing reads at a time. */
const LIST_PAGE = 200;

export async function keys(args: string[], io: KeysIo = defaultIo): Promise<void> {
  const { values, positionals } = parseOptions(
    args,
    {
      db: { type: 'string' },
      channel: { type: 'string' },
      admin: { type: 'boolean' },
      overlap: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  const [action, ...rest] = positionals;
  const command = commandOf(action, rest, values);
  const db = values.db ?? process.env.SANDBOX_DB ?? path.join('.sandbox', 'sandbox.db');
  const location = databaseLocation(db);
  if (location.kind === 'sqlite') checkDatabaseFile(location.file, action === 'create');
  const opened = await openStore(location, {});
  // Said once the transaction has committed: a key is never shown that was not stored.
  const said: string[] = [];
  const say = (line: string) => said.push(printable(line));
  // Whole, however long a list: a script parses it.
  const sayJson = (value: unknown) => said.push(terminalSafeJson(value));
  try {
    // One write transaction: every sandbox on the database sees all of it at its next request, or none.
    await opened.store.transaction(() => command(opened.store, values.json ? sayJson : undefined, say));
    for (const line of said) io.out(line);
  } catch (error) {
    if (error instanceof Refusal) throw new Error(error.message);
    throw error;
  } finally {
    await opened.close();
  }
}

type Options = { channel?: string | undefined; admin?: boolean | undefined; overlap?: string | undefined };
type Command = (
  store: SandboxStore,
  json: ((value: unknown) => void) | undefined,
  out: (line: string) => void,
) => Promise<void>;

/** The command the words ask for, checked before any database is opened. */
function commandOf(action: string | undefined, rest: string[], values: Options): Command {
  const noId = () => {
    if (rest.length > 0) throw new UsageError(`keys ${action} takes no key id; ${USAGE}`);
  };
  const oneId = () => {
    if (rest.length !== 1) throw new UsageError(`keys ${action} takes one key id (key_…); ${USAGE}`);
    return rest[0]!;
  };
  if (values.overlap !== undefined && action !== 'rotate')
    throw new UsageError(`--overlap is for keys rotate; ${USAGE}`);
  if (values.channel !== undefined && action !== 'create' && action !== 'list')
    throw new UsageError(`--channel is for keys create and keys list; ${USAGE}`);
  if (values.admin && action !== 'create' && action !== 'list')
    throw new UsageError(`--admin is for keys create and keys list; ${USAGE}`);
  switch (action) {
    case 'create': {
      noId();
      const scope = createdScope(values);
      return async (store, json, out) => {
        const made = await createKey(store, scope);
        if (json) return json(made);
        shownOnce(out, `Created ${made.id}, ${holder(made)}:`, made);
      };
    }
    case 'list': {
      noId();
      if (values.admin && values.channel !== undefined)
        throw new UsageError(`give --channel or --admin, not both; ${USAGE}`);
      if (values.channel !== undefined) checkedChannel(values.channel);
      const channel = values.admin ? null : values.channel;
      return async (store, json, out) => {
        const now = new Date().toISOString();
        const listed: ManagedKey[] = [];
        let after: number | undefined;
        do {
          const page = await store.apiKeys.list({
            ...(channel !== undefined ? { channel } : {}),
            ...(after ? { after } : {}),
            limit: LIST_PAGE,
          });
          listed.push(...page.keys);
          after = page.next;
        } while (after !== undefined);
        if (json) return json(listed.map((key) => ({ ...key, state: keyState(key, now) })));
        if (listed.length === 0)
          return out(
            channel === null ? 'No admin key.' : channel ? `No key of channel ${channel}.` : 'No managed key.',
          );
        for (const key of listed) out(listLine(key, now));
      };
    }
    case 'rotate': {
      const id = oneId();
      const overlap = values.overlap === undefined ? DEFAULT_OVERLAP_SECONDS : Number(values.overlap);
      if (values.overlap !== undefined && (!/^\d+$/.test(values.overlap) || overlapProblem(overlap)))
        throw new UsageError(
          `--overlap is a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS} (30 days), not ${JSON.stringify(values.overlap)}`,
        );
      return async (store, json, out) => {
        const { key, previous } = await rotateKey(store, id, overlap);
        if (json) return json({ key, previous });
        shownOnce(out, `Rotated ${previous.id}: ${key.id} replaces it, ${holder(key)}:`, key);
        out(
          overlap === 0
            ? `${previous.id} has ended: it is refused from now on.`
            : `${previous.id} stays valid until ${previous.expires_at}; move every client to the new key by then.`,
        );
      };
    }
    case 'revoke': {
      const id = oneId();
      return async (store, json, out) => {
        const revoked = await revokeKey(store, id);
        if (json) return json(revoked);
        out(`Revoked ${revoked.id} (${holder(revoked)}): refused from now on, by every sandbox on this database.`);
      };
    }
    default:
      throw new UsageError(action === undefined ? USAGE : `unknown keys command ${JSON.stringify(action)}; ${USAGE}`);
  }
}

/** Whose the key is, as a line says it. */
const holder = (key: ManagedKey) => (key.channel === null ? 'an admin key' : `for channel ${key.channel}`);

/** --channel NAME or --admin, checked before the database is opened. */
function createdScope(values: Options): KeyScope {
  if (values.admin && values.channel !== undefined)
    throw new UsageError(`give --channel or --admin, not both; ${USAGE}`);
  if (values.admin) return ADMIN_SCOPE;
  if (values.channel === undefined) throw new UsageError(`keys create needs --channel NAME or --admin; ${USAGE}`);
  return channelScope(checkedChannel(values.channel));
}

/**
 * The keys live in a database that sandboxes serve: a database only this command would see (in
 * memory, or at a mistyped path) would show a key that no sandbox serves, or list none. The first
 * key may make the database, as a sandbox would, in a folder that exists: it is made before any
 * sandbox starts; every other command needs the database there.
 */
function checkDatabaseFile(file: string, mayMake: boolean): void {
  if (file === ':memory:' || file === '')
    throw new DatabaseLocationError(`--db ${file}: keys are made in the database file a sandbox serves, not in memory`);
  if (existsSync(file)) return;
  if (!mayMake)
    throw new DatabaseLocationError(
      `--db ${file}: no database there. Check the path; a sandbox makes its database when it first starts ` +
        `(hsa-fsa-sandbox sandbox --db ${file}).`,
    );
  if (!existsSync(path.dirname(path.resolve(file))))
    throw new DatabaseLocationError(`--db ${file}: no folder ${path.dirname(file)}. Check the path.`);
}

/** A channel's name as --channel gives it, or a usage error that says what a name is. */
function checkedChannel(channel: string): string {
  const problem = channelNameProblem(channel);
  if (problem) throw new UsageError(`--channel ${JSON.stringify(channel)}: ${problem}`);
  return channel;
}

function shownOnce(out: (line: string) => void, heading: string, made: MadeKey): void {
  out(heading);
  out(`  ${made.key}`);
  out(
    made.channel === null
      ? "Shown this once: the database keeps only its hash. It opens the admin helpers and /metrics, sent as Authorization: Bearer <key>; it is no channel's key."
      : 'Shown this once: the database keeps only its hash. Send it as x-service-api-key.',
  );
}

function listLine(key: ManagedKey, now: string): string {
  const state = keyState(key, now);
  const when =
    state === 'revoked'
      ? `revoked ${key.revoked_at}`
      : state === 'expiring'
        ? `ends ${key.expires_at}`
        : state === 'expired'
          ? `ended ${key.expires_at}`
          : 'no end';
  return `${key.id}  ${key.channel === null ? 'admin' : `channel ${key.channel}`}  …${key.hint}  ${state.padEnd(8)}  made ${key.created_at}  ${when}`;
}
