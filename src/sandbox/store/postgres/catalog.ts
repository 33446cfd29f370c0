// The product catalog of each channel: the twin of ../catalog.ts. Items are documents beside the
// columns lists filter and order on; counts per eligibility are kept by triggers (catalog_counts);
// updated_after reads its range of an index. seq is the table's identity, ordering the items as
// SQLite's AUTOINCREMENT does (never reused; in write order under the store's write lock).
import { type NewItem, newCatalogItem, SEED_CATALOG, type StoredCatalogItem } from '../../domain/catalog.js';
import type { CatalogFacts } from '../../domain/letters.js';
import type { CatalogListFilter } from '../catalog.js';
import { named } from './named-sql.js';
import type { PgQueries } from './queries.js';

export type { CatalogListFilter };

/** The most `,"updated_at":"…"` takes in a stored document: the list shows the rest. */
const UPDATED_AT_BYTES = 64;

export function catalogRepository(q: PgQueries) {
  const row = (channel: string, item: StoredCatalogItem) => [
    channel,
    item.sku,
    item.product_id,
    item.eligibility,
    item.updated_at,
    JSON.stringify(item),
  ];
  // Whether the channel's seed was laid down now (the row is new), or before.
  const markSeeded = async (channel: string) =>
    (await q.run('INSERT INTO catalog_seeded (channel) VALUES ($1) ON CONFLICT DO NOTHING', [channel])) > 0;
  const skusOf = (channel: string, eligibility: string) =>
    q.column<string>('SELECT sku FROM catalog_items WHERE channel = $1 AND eligibility = $2 ORDER BY seq', [
      channel,
      eligibility,
    ]);

  const repository = {
    async insert(channel: string, item: StoredCatalogItem): Promise<void> {
      await q.run(
        `INSERT INTO catalog_items (channel, sku, product_id, eligibility, updated_at, document)
          VALUES ($1, $2, $3, $4, $5, $6)`,
        row(channel, item),
      );
    },
    async update(channel: string, item: StoredCatalogItem): Promise<void> {
      const [, sku, , eligibility, updatedAt, document] = row(channel, item);
      await q.run(
        'UPDATE catalog_items SET eligibility = $1, updated_at = $2, document = $3 WHERE channel = $4 AND sku = $5',
        [eligibility, updatedAt, document, channel, sku],
      );
    },
    async get(channel: string, sku: string): Promise<StoredCatalogItem | undefined> {
      const text = await q.value<string>('SELECT document FROM catalog_items WHERE channel = $1 AND sku = $2', [
        channel,
        sku,
      ]);
      return text === undefined ? undefined : (JSON.parse(text) as StoredCatalogItem);
    },
    /** Replaces the channel's items with these, oldest first. */
    async replace(channel: string, items: NewItem[], now: string, productId: () => string): Promise<void> {
      await q.run('DELETE FROM catalog_items WHERE channel = $1', [channel]);
      await markSeeded(channel);
      for (const item of items) await repository.insert(channel, newCatalogItem(item, productId(), now));
    },
    /**
     * Lays down the seed catalog of a channel that never had one. Under the store's write lock, one
     * process alone finds the channel unseeded; the primary key of catalog_seeded is the backstop.
     */
    async seed(channel: string, now: string, productId: () => string): Promise<void> {
      if (!(await markSeeded(channel))) return;
      for (const item of SEED_CATALOG) await repository.insert(channel, newCatalogItem(item, productId(), now));
    },
    /**
     * The eligibility of each of these skus the catalog has, in the order of SQLite's answer: by sku,
     * byte by byte (its lookup walks the sorted skus).
     */
    async eligibilityOf(channel: string, skus: string[]): Promise<Map<string, string | null>> {
      const rows = await q.all<{ sku: string; eligibility: string | null }>(
        `SELECT sku, eligibility FROM catalog_items WHERE channel = $1 AND sku = ANY ($2::text[])
          ORDER BY sku COLLATE "C"`,
        [channel, skus],
      );
      return new Map(rows.map((r) => [r.sku, r.eligibility]));
    },
    /**
     * Items chargeable without a letter, and which of these skus the catalog has and are chargeable at all, for an
     * eligibility answer.
     */
    async facts(channel: string, skus: string[]): Promise<CatalogFacts> {
      const known = await repository.eligibilityOf(channel, skus);
      const chargeable = [...known]
        .filter(([, e]) => e === 'eligible' || e === 'eligible_with_lmn')
        .map(([sku]) => sku);
      return {
        eligible: await skusOf(channel, 'eligible'),
        listed: new Set(known.keys()),
        chargeable: new Set(chargeable),
      };
    },
    /** The skus that need a letter of medical necessity. */
    lmnSkus: (channel: string): Promise<string[]> => skusOf(channel, 'eligible_with_lmn'),
    async list(
      channel: string,
      filter: CatalogListFilter,
      page: { offset: number; limit: number },
    ): Promise<{ items: StoredCatalogItem[]; count: number }> {
      const { items, count } = await repository.listed(channel, filter, page);
      return { items: [...items], count };
    },
    /**
     * The same page, and the bytes its items take at least as the list shows them: each document's,
     * less its updated_at. The page's documents are read with their sizes, in one statement; each is
     * parsed only when it is asked for.
     */
    async listed(
      channel: string,
      filter: CatalogListFilter,
      page: { offset: number; limit: number },
    ): Promise<{ items: Iterable<StoredCatalogItem>; count: number; knownBytes: number }> {
      const conditions = ['channel = @channel'];
      const params: Record<string, unknown> = { channel, ...page };
      if (filter.eligibility !== undefined) {
        conditions.push('eligibility = @eligibility');
        params.eligibility = filter.eligibility;
      }
      if (filter.updatedAfter !== undefined) {
        // ISO 8601 UTC timestamps of one format order as text, byte by byte (SQLite's BINARY).
        conditions.push('updated_at >= @updated_after COLLATE "C"');
        params.updated_after = filter.updatedAfter;
      }
      const where = conditions.join(' AND ');
      let count: number;
      if (filter.updatedAfter === undefined) {
        const byEligibility = await q.all<{ eligibility: string; n: number }>(
          'SELECT eligibility, n FROM catalog_counts WHERE channel = $1',
          [channel],
        );
        count = byEligibility
          .filter((c) => filter.eligibility === undefined || c.eligibility === filter.eligibility)
          .reduce((sum, c) => sum + c.n, 0);
      } else {
        const { limit: _limit, offset: _offset, ...filters } = params;
        count = (await q.value<number>(...named(`SELECT COUNT(*) FROM catalog_items WHERE ${where}`, filters))) ?? 0;
      }
      if (page.offset >= count) return { items: [], count, knownBytes: 0 };
      const rows = await q.all<{ document: string; bytes: number }>(
        ...named(
          `SELECT document, octet_length(document) - ${UPDATED_AT_BYTES} AS bytes FROM catalog_items WHERE ${where}
            ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
          params,
        ),
      );
      const knownBytes = rows.reduce((sum, r) => sum + r.bytes, 0);
      return { items: parsedLazily(rows.map((r) => r.document)), count, knownBytes };
    },
  };
  return repository;
}

/** Each document parsed when it is asked for. */
function* parsedLazily(documents: string[]): Generator<StoredCatalogItem> {
  for (const document of documents) yield JSON.parse(document) as StoredCatalogItem;
}
