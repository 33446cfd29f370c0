// What the differential test of the two backends shares: a pair of in-process sandboxes built alike,
// one on SQLite :memory: and one on a fresh PostgreSQL database, and the normalisation of their
// answers. Each side mints its own ids; an answer is compared after each id is replaced by a symbol
// given in order of first appearance, per side, so that two answers agree when they name the same
// objects in the same places, and a reference to an id is still checked.
import type { FastifyInstance } from 'fastify';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { drillDeliveryShaper } from '../../src/sandbox/http/evolution-drill.js';
import type { IdSource } from '../../src/sandbox/ids.js';
import { createPostgresStore, type PostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import { deliveryWakeUp } from '../../src/sandbox/store/wake-up.js';
import { DEV_KEY } from '../../testkit/sandbox.js';
import { ADMIN_SCOPE } from '../../src/sandbox/domain/api-keys.js';
import { createKey } from '../../src/sandbox/keys/manage.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';

/**
 * Ids that a pattern can find anywhere in an answer (inside a URL too): a UUID, its 32 hex digits
 * without dashes (a delivery id), and a short id, each with a marker no real value carries.
 */
function countingIds(): IdSource {
  let n = 0;
  return {
    uuid: () => `0d1f0000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`,
    short: () => `0d1f${(++n).toString(16).padStart(16, '0')}`,
  };
}

// The bare UUID comes before the short id, which would match its first 20 digits.
const MINTED_PATTERN = /0d1f0000-0000-4000-8000-([0-9a-f]{12})|0d1f0000000040008000([0-9a-f]{12})|0d1f([0-9a-f]{16})/g;
/**
 * Values random on each database, never equal between two: webhook secrets (a listener's derives
 * from the database's page secret) and the signatures made with them.
 */
const RANDOM_SECRET = /whsec_[A-Za-z0-9_-]+/g;
/** A managed API key, random on each side: masked; its id is symbolised, as a minted id is. */
const MANAGED_KEY = /sk_sandbox_[A-Za-z0-9_-]+/g;
const KEY_ID = /key_([0-9a-f]{16})/g;
const SIGNATURE = /\b(v\d+=)[0-9a-f]{64}\b/g;

export interface Reply {
  status: number;
  body: unknown;
}

export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** The API key; the development channel's when absent, none when null. */
  key?: string | null;
  /** Sent with the side's admin key (Authorization: Bearer) instead of a channel's. */
  admin?: boolean;
}

/** One backend's sandbox and its symbol table. */
export class Side {
  private readonly symbolOf = new Map<string, string>();
  private readonly valueOf = new Map<string, string>();

  constructor(
    readonly name: string,
    readonly app: FastifyInstance,
    private readonly closeStore: () => Promise<void>,
    /** This side's admin key (each side makes its own, at random). */
    private readonly adminKey: string,
  ) {}

  /**
   * A string with each minted id replaced by its symbol, given at first sight. Secrets and
   * signatures are masked first: a signature's random digits may hold a short id's pattern.
   */
  private symbolise(text: string): string {
    return text
      .replace(RANDOM_SECRET, 'whsec_*')
      .replace(MANAGED_KEY, 'sk_sandbox_*')
      .replace(SIGNATURE, '$1*')
      .replace(KEY_ID, (whole, hex: string) => {
        const key = `k${hex}`;
        let symbol = this.symbolOf.get(key);
        if (symbol === undefined) {
          symbol = `#${this.symbolOf.size + 1}`;
          this.symbolOf.set(key, symbol);
        }
        this.valueOf.set(`{key${symbol}}`, whole);
        return `{key${symbol}}`;
      })
      .replace(MINTED_PATTERN, (whole, dashed: string, bare: string, short: string) => {
        // The dashed and the bare form of one UUID are one id: a delivery id names its event's UUID.
        const key = dashed !== undefined ? `u${dashed}` : bare !== undefined ? `u${bare}` : `s${short}`;
        let symbol = this.symbolOf.get(key);
        if (symbol === undefined) {
          symbol = `#${this.symbolOf.size + 1}`;
          this.symbolOf.set(key, symbol);
        }
        const form = dashed !== undefined ? 'uuid' : bare !== undefined ? 'hex' : 'short';
        this.valueOf.set(`{${form}${symbol}}`, whole);
        return `{${form}${symbol}}`;
      });
  }

  /** The answer as compared: every string symbolised, object keys kept in order. */
  normalise(value: unknown): unknown {
    if (typeof value === 'string') return this.symbolise(value);
    if (Array.isArray(value)) return value.map((item) => this.normalise(item));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        // A managed key's hint is its last four characters: as random as the key.
        Object.entries(value).map(([k, v]) => [this.symbolise(k), k === 'hint' ? '*' : this.normalise(v)]),
      );
    return value;
  }

  /**
   * An opaque value whose text is each process's own (the activity revision hashes a random value of
   * the process): a symbol given at first sight, so that only whether it changed is compared.
   */
  opaque(value: string): string {
    const key = `o${value}`;
    let symbol = this.symbolOf.get(key);
    if (symbol === undefined) {
      symbol = `#${this.symbolOf.size + 1}`;
      this.symbolOf.set(key, symbol);
    }
    return `{opaque${symbol}}`;
  }

  /** A symbolic text (a URL, a body) with this side's ids put back. */
  concrete(text: string): string {
    return text.replace(/\{(uuid|hex|short|key)#\d+\}/g, (symbol) => this.valueOf.get(symbol) ?? symbol);
  }

  async send(request: Request): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (request.admin) headers.authorization = `Bearer ${this.adminKey}`;
    else if (request.key !== null) headers['x-service-api-key'] = request.key ?? DEV_KEY;
    const payload = request.body === undefined ? undefined : this.concrete(JSON.stringify(request.body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const response = await this.app.inject({
      method: request.method,
      url: this.concrete(request.url),
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const type = String(response.headers['content-type'] ?? '');
    return { status: response.statusCode, body: type.includes('json') ? response.json() : response.body };
  }

  close(): Promise<void> {
    return this.app.close().then(this.closeStore);
  }
}

/** A sandbox on SQLite :memory:, made as server.ts makes it. */
export async function sqliteSide(): Promise<Side> {
  const db = openDatabase(':memory:');
  const store = sqliteBackend(createStore(db, { shapeDelivery: drillDeliveryShaper(), wakeUp: deliveryWakeUp() }));
  const app = buildSandbox({ store, ids: countingIds(), logger: false });
  return new Side('sqlite', app, async () => void db.close(), await adminKeyOf(store));
}

/** An admin key made on the side's store, as `hsa-fsa-sandbox keys create --admin` makes one. */
async function adminKeyOf(store: SandboxStore): Promise<string> {
  return (await store.transaction(() => createKey(store, ADMIN_SCOPE))).key;
}

/** A sandbox on the PostgreSQL database at `url` (an empty one), made as server.ts makes it. */
export async function postgresSide(url: string): Promise<Side> {
  const store: PostgresStore = await createPostgresStore(url, {
    shapeDelivery: drillDeliveryShaper(),
    wakeUp: deliveryWakeUp(),
  });
  const app = buildSandbox({ store, ids: countingIds(), logger: false });
  return new Side('postgres', app, () => store.close(), await adminKeyOf(store));
}
