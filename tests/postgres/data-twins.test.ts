// The PostgreSQL repositories of sessions, tokens, provisioning, letters and the catalog answer
// exactly as their SQLite twins for the same sequence of calls: the same rows, order, tie-breaks,
// counts, pages, JSON texts and refusals. A seeded random sequence of writes and reads runs against
// both, and every answer is compared.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { NewItem } from '../../src/sandbox/domain/catalog.js';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter, type ListQuery } from '../../src/sandbox/domain/listing.js';
import type { ProvisionRequest } from '../../src/sandbox/domain/provisioning.js';
import type { CreateSessionRequest, PaymentTokenRecord, Session } from '../../src/sandbox/domain/types.js';
import type { ListFlags } from '../../src/sandbox/domain/views.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { catalogRepository } from '../../src/sandbox/store/postgres/catalog.js';
import { lettersRepository } from '../../src/sandbox/store/postgres/letters.js';
import { provisionRequestsRepository } from '../../src/sandbox/store/postgres/provision-requests.js';
import { sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { tokenListQueries } from '../../src/sandbox/store/postgres/token-list.js';
import { tokensRepository } from '../../src/sandbox/store/postgres/tokens.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { dataDatabase, type Process, processOn, noAnswers } from './data-process.js';

const processes: Process[] = [];
afterAll(async () => {
  for (const pg of processes) await pg.close();
});

/** A fresh database, as the SQLite twin's is: the seqs of both then count from the same start. */
async function freshProcess(): Promise<Process> {
  const pg = processOn(await dataDatabase('data_twins'));
  processes.push(pg);
  return pg;
}

/**
 * A token as SQLite's list answers it but the columns of its page's join (r, s): an artifact of
 * `SELECT *` over a join, which no caller reads (the list handler reads `listed`).
 */
const withoutJoin = (answer: { tokens: Array<Record<string, unknown>>; count: number }) => ({
  ...answer,
  tokens: answer.tokens.map(({ r: _r, s: _s, ...token }) => token),
});

/** A small seeded generator, so that a failing sequence can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(values: readonly T[]): T => values[int(values.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

/** The answer of a call, or the refusal it threw, as comparable data. */
async function outcome(call: () => unknown): Promise<unknown> {
  try {
    const value = await call();
    return JSON.parse(JSON.stringify(value, (_, v) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v)));
  } catch (error) {
    return { refused: (error as Error).constructor.name, message: (error as Error).message };
  }
}

const STATUSES = ['pending', 'processing', 'captured', 'rejected', 'authorized', 'authorization_voided', 'canceled'];
const KINDS = ['one_time_payment', 'authorization'];
const CHANNELS = ['dev', 'other'];
const NAMES = ['Jane Doe', 'John Smith', 'Zoë Ünal', 'ANNA_50%', 'back\\slash', 'Ōta Ken'];
const EMAILS = ['jane@example.com', 'john.smith@shop.test', 'zoe@exämple.org', 'a_b%c@x.io', 'BIG@EXAMPLE.COM'];
const NEEDLES = [
  'doe',
  'jane',
  'ex',
  'e',
  '%',
  '_',
  'a_b',
  'ämp',
  'Ōta',
  'SMITH',
  'exa',
  'sess-0',
  'bus',
  '\\s',
  'zz',
  '\u0000ab',
];

describe('the PostgreSQL data repositories and their SQLite twins', () => {
  it.each([1, 2, 3])('answer alike a random sequence of writes and reads (seed %i)', async (seed) => {
    const r = random(seed);
    const pg = await freshProcess();
    const sqlite = createStore(openDatabase(':memory:'));
    // A channel prefix of the seed: every run writes its own channels in the one database.
    const tag = `s${seed}-`;
    const twin = {
      sessions: sessionsRepository(pg.q, noAnswers),
      tokens: { ...tokensRepository(pg.q), ...tokenListQueries(pg.q) },
      provisionRequests: provisionRequestsRepository(pg.q),
      letters: lettersRepository(pg.q),
      catalog: catalogRepository(pg.q),
    };
    const sessions: Session[] = [];
    const tokens: PaymentTokenRecord[] = [];
    const requests: ProvisionRequest[] = [];
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000).toISOString();
    let clock = 0;
    let ids = 0;
    const compare = async (what: string, onSqlite: () => unknown, onPg: () => unknown) => {
      const expected = await outcome(onSqlite);
      expect(await outcome(onPg), what).toEqual(expected);
    };
    const write = async (onSqlite: () => void, onPg: () => Promise<void>) => {
      sqlite.transaction(onSqlite);
      await pg.write(onPg);
    };

    for (let step = 0; step < 400; step++) {
      const channel = tag + r.pick(CHANNELS);
      const op = r.int(20);
      if (op < 5 || sessions.length === 0) {
        const id = `sess-${String(ids++).padStart(3, '0')}-${r.int(1000)}`;
        const base = newSession({
          id,
          channel,
          request: sessionRequest({
            customer_email: r.pick(EMAILS),
            customer_name: r.pick(NAMES),
            ...(r.chance(0.3) ? { idempotency_key: `key-${r.int(5)}` } : {}),
          }) as CreateSessionRequest,
          now: at(clock++),
          userBusinessId: r.chance(0.5) ? `bus_${r.int(50)}` : undefined,
          newId: () => `item${ids++}`,
        });
        const session: Session = {
          ...base,
          status: r.pick(STATUSES) as Session['status'],
          kind: r.pick(KINDS) as Session['kind'],
          ...(r.chance(0.4) ? { captured_at: at(clock + r.int(20)) } : {}),
          ...(r.chance(0.3) ? { payment_token: `ptok_${r.int(4)}` } : {}),
        };
        // An idempotency key already taken on the channel is refused by both (the unique index).
        const taken = sessions.some((s) => s.channel === channel && s.idempotency_key === session.idempotency_key);
        if (session.idempotency_key !== undefined && taken) continue;
        sessions.push(session);
        await write(
          () => sqlite.sessions.insert(session),
          () => twin.sessions.insert(session),
        );
      } else if (op < 7) {
        const index = r.int(sessions.length);
        const changed: Session = {
          ...sessions[index]!,
          status: r.pick(STATUSES) as Session['status'],
          customer_email: r.pick(EMAILS),
          ...(r.chance(0.5) ? { captured_at: at(clock + r.int(20)) } : {}),
        };
        sessions[index] = changed;
        await write(
          () => sqlite.sessions.update(changed),
          () => twin.sessions.update(changed),
        );
      } else if (op < 11) {
        const query: ListQuery = {};
        if (r.chance(0.3)) query.status = [r.pick(STATUSES), r.pick(STATUSES)] as ListQuery['status'];
        if (r.chance(0.2)) query.kind = [r.pick(KINDS)] as ListQuery['kind'];
        if (r.chance(0.2)) query.filter_pending = r.chance(0.5);
        if (r.chance(0.2)) query.filter_voided = r.chance(0.5);
        if (r.chance(0.4)) query.search = r.pick([...NEEDLES, ...sessions.map((s) => s.id.slice(2, 9))]);
        if (r.chance(0.15)) query.payment_token = r.chance(0.2) ? 'ptok_\u00001' : `ptok_${r.int(4)}`;
        if (r.chance(0.15)) query.created_on_start = at(r.int(clock + 1));
        if (r.chance(0.15)) query.created_on_end = at(r.int(clock + 1));
        if (r.chance(0.15)) query.captured_on_start = at(r.int(clock + 1));
        if (r.chance(0.1)) query.captured_on_end = at(r.int(clock + 1));
        const filter = sessionListFilter(query);
        const page = { offset: r.pick([0, 0, 1, 3, 10]), limit: r.pick([1, 2, 5, 30]) };
        const flags: ListFlags = r.chance(0.5) ? {} : { include_metadata: true, include_order_items: r.chance(0.5) };
        const what = `list ${channel} ${JSON.stringify({ query, page })}`;
        await compare(
          what,
          () => sqlite.sessions.list(channel, filter, page),
          () => twin.sessions.list(channel, filter, page),
        );
        await compare(
          what,
          () => sqlite.sessions.listViews(channel, filter, page),
          () => twin.sessions.listViews(channel, filter, page),
        );
        await compare(
          what,
          () => {
            const { items, count } = sqlite.sessions.listItems(channel, filter, page, flags);
            return { items: [...items], count };
          },
          async () => {
            const { items, count } = await twin.sessions.listItems(channel, filter, page, flags);
            return { items: [...items], count };
          },
        );
        if (r.chance(0.2)) sqlite.sessions.indexPendingSearches();
      } else if (op < 12) {
        const session = r.pick(sessions);
        const asker = r.chance(0.8) ? session.channel : channel;
        const key = r.chance(0.2) ? `key-${r.int(5)}\u0000` : `key-${r.int(5)}`;
        // A key with a NUL names no row on either.
        const id = r.chance(0.2) ? `${session.id}\u0000` : session.id;
        await compare(
          `get ${session.id}`,
          () => [
            sqlite.sessions.get(asker, id),
            sqlite.sessions.getForCustomer(id),
            sqlite.sessions.detailView(asker, id),
            sqlite.sessions.findByIdempotencyKey(asker, key)?.id,
          ],
          async () => [
            await twin.sessions.get(asker, id),
            await twin.sessions.getForCustomer(id),
            await twin.sessions.detailView(asker, id),
            (await twin.sessions.findByIdempotencyKey(asker, key))?.id,
          ],
        );
      } else if (op < 14) {
        const email = r.pick(EMAILS);
        const record: PaymentTokenRecord = {
          token: `ptok_${tag}${ids++}`,
          channel,
          session_id: null,
          status: r.pick(['active', 'active', 'pending_checkout', 'deleted'] as const),
          next_action: null,
          created_at: at(clock++),
          customer_email: r.chance(0.9) ? email : null,
          customer_name: r.chance(0.9) ? r.pick(NAMES) : null,
          customer_key: email.toLowerCase(),
          card_brand: r.chance(0.7) ? 'visa' : null,
          card_last4: '4242',
          card_expires: `2027-${String(1 + r.int(12)).padStart(2, '0')}`,
          lmn_expires_at: r.chance(0.5) ? `2027-0${1 + r.int(9)}-15` : null,
          provision_request_id: null,
          metadata: r.chance(0.3) ? '{"a":1}' : null,
          success_url: null,
          failure_url: null,
          ...(r.chance(0.5) ? { user_business_id: `bus_${r.int(9)}` } : {}),
        };
        tokens.push(record);
        await write(
          () => sqlite.tokens.insert(record),
          () => twin.tokens.insert(record),
        );
      } else if (op < 15 && tokens.length > 0) {
        const record = r.pick(tokens);
        const change = r.int(4);
        const status = r.pick(['active', 'deleted'] as const);
        const card = { brand: 'mc', last4: '1111', expires: `2026-${String(1 + r.int(12)).padStart(2, '0')}` };
        await write(
          () => {
            if (change === 0) sqlite.tokens.setStatus(record.channel, record.token, status);
            if (change === 1) sqlite.tokens.setNextAction(record.channel, record.token, null);
            if (change === 2) sqlite.tokens.setCard(record.channel, record.token, card);
            if (change === 3) sqlite.tokens.setLetterExpiry(record.channel, record.customer_key, '2028-01-01');
          },
          async () => {
            if (change === 0) await twin.tokens.setStatus(record.channel, record.token, status);
            if (change === 1) await twin.tokens.setNextAction(record.channel, record.token, null);
            if (change === 2) await twin.tokens.setCard(record.channel, record.token, card);
            if (change === 3) await twin.tokens.setLetterExpiry(record.channel, record.customer_key, '2028-01-01');
          },
        );
      } else if (op < 17) {
        const filter = {
          ...(r.chance(0.4) ? { email: r.pick(NEEDLES) } : {}),
          ...(r.chance(0.3) ? { name: r.pick(NEEDLES) } : {}),
          ...(r.chance(0.2) ? { cardExpiresBefore: `2027-0${1 + r.int(9)}` } : {}),
          ...(r.chance(0.2) ? { lmnExpiresBefore: `2027-0${1 + r.int(9)}-01` } : {}),
        };
        const page = { offset: r.pick([0, 0, 2]), limit: r.pick([1, 3, 30]) };
        const what = `tokens ${channel} ${JSON.stringify({ filter, page })}`;
        await compare(
          what,
          () => withoutJoin(sqlite.tokens.list(channel, filter, page) as never),
          () => twin.tokens.list(channel, filter, page),
        );
        await compare(
          what,
          () => {
            const { tokens: shown, count } = sqlite.tokens.listed(channel, filter, page);
            return { tokens: [...shown], count };
          },
          async () => {
            const { tokens: shown, count } = await twin.tokens.listed(channel, filter, page);
            return { tokens: [...shown], count };
          },
        );
        if (tokens.length > 0) {
          const record = r.pick(tokens);
          const token = r.chance(0.2) ? `${record.token}\u0000` : record.token;
          const customer = r.chance(0.2) ? `${record.customer_key}\u0000` : record.customer_key;
          await compare(
            'token reads',
            () => [
              sqlite.tokens.get(channel, token),
              sqlite.tokens.getForCustomer(token),
              sqlite.tokens.activeOf(channel, customer),
            ],
            async () => [
              await twin.tokens.get(channel, token),
              await twin.tokens.getForCustomer(token),
              await twin.tokens.activeOf(channel, customer),
            ],
          );
        }
      } else if (op < 18) {
        // Provision requests and their letters.
        const id = `pr_${tag}${ids++}`;
        const customer = r.pick(EMAILS).toLowerCase();
        const request = {
          id,
          channel,
          created_at: at(clock++),
          purpose: 'setup',
          status: r.pick(['awaiting_customer', 'awaiting_letter', 'provisioned'] as const),
          customer_key: customer,
          ...(r.chance(0.5) ? { idempotency_key: `pk-${ids}` } : {}),
          ...(r.chance(0.5) ? { payment_token: `ptok_${r.int(3)}` } : {}),
          needs: [],
          success_url: 'https://shop.example/ok',
          failure_url: 'https://shop.example/no',
          use_iframe: false,
        } as unknown as ProvisionRequest;
        requests.push(request);
        const letter = {
          customer_key: customer,
          provision_request_id: id,
          status: 'pending' as const,
          skus: ['BPM-200', 'TH-10'],
          expires_on: null,
          created_at: at(clock),
        };
        const decided = r.pick(['approved', 'rejected'] as const);
        await write(
          () => {
            sqlite.provisionRequests.insert(request);
            sqlite.letters.add(channel, letter);
            if (r.chance(0.5)) sqlite.letters.decide(id, decided, '2027-06-30');
          },
          async () => {
            await twin.provisionRequests.insert(request);
            await twin.letters.add(channel, letter);
          },
        );
        // The decision drawn above, replayed on PostgreSQL from SQLite's letter.
        const decidedLetter = sqlite.letters.ofRequest(id)!;
        if (decidedLetter.status !== 'pending')
          await pg.write(() => twin.letters.decide(id, decidedLetter.status, decidedLetter.expires_on));
      } else if (op < 19 && requests.length > 0) {
        const request = r.pick(requests);
        const updated = {
          ...request,
          status: r.pick(['awaiting_letter', 'canceled'] as const),
          payment_token: 'ptok_9',
        };
        await write(
          () => sqlite.provisionRequests.update(updated),
          () => twin.provisionRequests.update(updated),
        );
        await compare(
          'provisioning reads',
          () => [
            sqlite.provisionRequests.get(channel, request.id),
            sqlite.provisionRequests.getForCustomer(request.id),
            sqlite.provisionRequests.findByIdempotencyKey(request.channel, request.idempotency_key ?? 'none'),
            sqlite.provisionRequests.hasLetterAwaited(channel, request.customer_key),
            sqlite.provisionRequests.openForToken(channel, 'ptok_9'),
            sqlite.letters.ofCustomer(channel, request.customer_key),
            sqlite.letters.ofRequest(request.id),
          ],
          async () => [
            await twin.provisionRequests.get(channel, request.id),
            await twin.provisionRequests.getForCustomer(request.id),
            await twin.provisionRequests.findByIdempotencyKey(request.channel, request.idempotency_key ?? 'none'),
            await twin.provisionRequests.hasLetterAwaited(channel, request.customer_key),
            await twin.provisionRequests.openForToken(channel, 'ptok_9'),
            await twin.letters.ofCustomer(channel, request.customer_key),
            await twin.letters.ofRequest(request.id),
          ],
        );
      } else {
        // The catalog.
        const now = at(clock++);
        let products = 0;
        const productId = () => `prod_${products++}`;
        const choice = r.int(4);
        const items: NewItem[] = [
          {
            sku: `SKU-${r.int(30)}`,
            eligibility: r.pick(['eligible', 'eligible_with_lmn', 'ineligible', null] as const),
          },
          { sku: `SKU-${r.int(30)}`, eligibility: 'eligible' as const },
        ].filter((item, i, all) => all.findIndex((other) => other.sku === item.sku) === i);
        await write(
          () => {
            products = 0;
            if (choice === 0) sqlite.catalog.seed(channel, now, productId);
            if (choice === 1) sqlite.catalog.replace(channel, items, now, productId);
            if (choice === 2) {
              const item = sqlite.catalog.get(channel, 'BPM-200');
              if (item) sqlite.catalog.update(channel, { ...item, eligibility: 'ineligible', updated_at: now });
            }
          },
          async () => {
            products = 0;
            if (choice === 0) await twin.catalog.seed(channel, now, productId);
            if (choice === 1) await twin.catalog.replace(channel, items, now, productId);
            if (choice === 2) {
              const item = await twin.catalog.get(channel, 'BPM-200');
              if (item) await twin.catalog.update(channel, { ...item, eligibility: 'ineligible', updated_at: now });
            }
          },
        );
        const skus = ['TH-10', 'BPM-200', 'SKU-3', 'SKU-12', 'nope', 'TH-10\u0000'];
        const filter = {
          ...(r.chance(0.4) ? { eligibility: r.pick(['eligible', 'eligible_with_lmn', 'ineligible', '']) } : {}),
          ...(r.chance(0.3) ? { updatedAfter: at(r.int(clock + 1)) } : {}),
        };
        const page = { offset: r.pick([0, 1, 5]), limit: r.pick([1, 3, 30]) };
        await compare(
          `catalog ${channel} ${JSON.stringify({ filter, page })}`,
          async () => {
            const listed = sqlite.catalog.listed(channel, filter, page);
            return [
              sqlite.catalog.list(channel, filter, page),
              { ...listed, items: [...listed.items] },
              sqlite.catalog.eligibilityOf(channel, skus),
              sqlite.catalog.facts(channel, skus),
              sqlite.catalog.lmnSkus(channel),
            ];
          },
          async () => {
            const listed = await twin.catalog.listed(channel, filter, page);
            return [
              await twin.catalog.list(channel, filter, page),
              { ...listed, items: [...listed.items] },
              await twin.catalog.eligibilityOf(channel, skus),
              await twin.catalog.facts(channel, skus),
              await twin.catalog.lmnSkus(channel),
            ];
          },
        );
      }
    }
  });
});

describe('renderings stored before the current version', () => {
  it('a session whose stored renderings are stale is rendered from its document, as SQLite does', async () => {
    const pg = await freshProcess();
    const db = openDatabase(':memory:');
    const sqlite = createStore(db);
    const twin = sessionsRepository(pg.q, noAnswers);
    for (let n = 0; n < 4; n++) {
      const session = newSession({
        id: `stale-${n}`,
        channel: 'dev',
        request: sessionRequest({ metadata: `m${n}` }) as CreateSessionRequest,
        now: `2026-01-01T00:00:0${n}.000Z`,
        newId: () => `item${n}`,
      });
      sqlite.sessions.insert(session);
      await pg.write(() => twin.insert(session));
    }
    // Rows written before their renderings were kept (or of an older version): a renderer's change.
    const stale =
      "UPDATE payment_sessions SET list_view = 'old', list_view_version = NULL, detail_view = 'old', " +
      "detail_view_version = NULL WHERE id IN ('stale-1', 'stale-2')";
    db.exec(stale);
    await pg.q.run(stale);
    const filter = sessionListFilter({});
    const page = { offset: 0, limit: 30 };
    const expected = sqlite.sessions.listViews('dev', filter, page);
    expect(expected.views.some((view) => view === 'old')).toBe(false);
    expect(await twin.listViews('dev', filter, page)).toEqual(expected);
    const items = await twin.listItems('dev', filter, page, {});
    expect([...items.items]).toEqual([...sqlite.sessions.listItems('dev', filter, page, {}).items]);
    for (const id of ['stale-1', 'stale-3'])
      expect(await twin.detailView('dev', id)).toBe(sqlite.sessions.detailView('dev', id));
  });

  it('a page parses the documents of its own sessions only, however many match', async () => {
    const pg = await freshProcess();
    const twin = sessionsRepository(pg.q, noAnswers);
    await pg.write(async () => {
      for (let n = 0; n < 40; n++)
        await twin.insert(
          newSession({
            id: `id-${String(n).padStart(4, '0')}`,
            channel: 'dev',
            request: sessionRequest() as CreateSessionRequest,
            now: '2026-01-01T00:00:00.000Z',
            newId: () => `item${n}`,
          }),
        );
    });
    const parse = vi.spyOn(JSON, 'parse');
    const { sessions, count } = await twin.list('dev', sessionListFilter({}), { offset: 10, limit: 5 });
    const parsed = parse.mock.calls.length;
    parse.mockRestore();
    expect({ count, ids: sessions.map((s) => s.id) }).toEqual({
      count: 40,
      ids: ['id-0029', 'id-0028', 'id-0027', 'id-0026', 'id-0025'],
    });
    expect(parsed).toBe(5);
  });
});
