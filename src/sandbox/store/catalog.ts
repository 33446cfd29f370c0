// The product catalog of each channel: items as documents beside the columns lists filter and order
// on. Counts per eligibility are kept by triggers; updated_after reads its range of an index.
import { SEED_CATALOG, newCatalogItem, type NewItem, type StoredCatalogItem } from '../domain/catalog.js';
import type { CatalogFacts } from '../domain/letters.js';
import type { Db } from './database.js';
import { statementCache } from './statement-cache.js';

export interface CatalogListFilter {
  eligibility?: string;
  /** ISO 8601 UTC, as stored: items whose last update is at or after it. */
  updatedAfter?: string;
}

export function catalogRepository(db: Db) {
  const insert = db.prepare(`INSERT INTO catalog_items (channel, sku, product_id, eligibility, updated_at, document)
    VALUES (@channel, @sku, @product_id, @eligibility, @updated_at, @document)`);
  const update = db.prepare(
    'UPDATE catalog_items SET eligibility = @eligibility, updated_at = @updated_at, document = @document WHERE ' +
      'channel = @channel AND sku = @sku',
  );
  const get = db.prepare('SELECT document FROM catalog_items WHERE channel = ? AND sku = ?').pluck();
  const clear = db.prepare('DELETE FROM catalog_items WHERE channel = ?');
  const seeded = db.prepare('INSERT INTO catalog_seeded (channel) VALUES (?) ON CONFLICT DO NOTHING');
  const counts = db.prepare('SELECT eligibility, n FROM catalog_counts WHERE channel = ?');
  const bySkus = db.prepare(
    'SELECT sku, eligibility FROM catalog_items WHERE channel = ? AND sku IN (SELECT value FROM json_each(?))',
  );
  const eligible = db
    .prepare("SELECT sku FROM catalog_items WHERE channel = ? AND eligibility = 'eligible' ORDER BY seq")
    .pluck();
  const lmn = db
    .prepare("SELECT sku FROM catalog_items WHERE channel = ? AND eligibility = 'eligible_with_lmn' ORDER BY seq")
    .pluck();
  const row = (channel: string, item: StoredCatalogItem) => ({
    channel,
    sku: item.sku,
    product_id: item.product_id,
    eligibility: item.eligibility,
    updated_at: item.updated_at,
    document: JSON.stringify(item),
  });
  const prepared = statementCache(db);
  const repository = {
    insert: (channel: string, item: StoredCatalogItem) => void insert.run(row(channel, item)),
    update: (channel: string, item: StoredCatalogItem) => void update.run(row(channel, item)),
    get(channel: string, sku: string): StoredCatalogItem | undefined {
      const text = get.get(channel, sku) as string | undefined;
      return text === undefined ? undefined : (JSON.parse(text) as StoredCatalogItem);
    },
    /** Replaces the channel's items with these, oldest first. */
    replace(channel: string, items: NewItem[], now: string, productId: () => string): void {
      clear.run(channel);
      seeded.run(channel);
      for (const item of items) repository.insert(channel, newCatalogItem(item, productId(), now));
    },
    /** Lays down the seed catalog of a channel that never had one. */
    seed(channel: string, now: string, productId: () => string): void {
      if (seeded.run(channel).changes === 0) return;
      for (const item of SEED_CATALOG) repository.insert(channel, newCatalogItem(item, productId(), now));
    },
    /** The eligibility of each of these skus the catalog has. */
    eligibilityOf(channel: string, skus: string[]): Map<string, string | null> {
      const rows = bySkus.all(channel, JSON.stringify(skus)) as Array<{ sku: string; eligibility: string | null }>;
      return new Map(rows.map((r) => [r.sku, r.eligibility]));
    },
    /**
     * Items chargeable without a letter, and which of these skus the catalog has and are chargeable at all, for an
     * eligibility answer.
     */
    facts(channel: string, skus: string[]): CatalogFacts {
      const known = repository.eligibilityOf(channel, skus);
      const chargeable = [...known]
        .filter(([, e]) => e === 'eligible' || e === 'eligible_with_lmn')
        .map(([sku]) => sku);
      return {
        eligible: eligible.all(channel) as string[],
        listed: new Set(known.keys()),
        chargeable: new Set(chargeable),
      };
    },
    /** The skus that need a letter of medical necessity. */
    lmnSkus: (channel: string) => lmn.all(channel) as string[],
    list(
      channel: string,
      filter: CatalogListFilter,
      page: { offset: number; limit: number },
    ): { items: StoredCatalogItem[]; count: number } {
      const { items, count } = repository.listed(channel, filter, page);
      return { items: [...items], count };
    },
    /**
     * The same page, each item read and parsed only when it is asked for, and the bytes its items
     * take at least as the list shows them: each document's, less its updated_at (read without them).
     */
    listed(
      channel: string,
      filter: CatalogListFilter,
      page: { offset: number; limit: number },
    ): { items: Iterable<StoredCatalogItem>; count: number; knownBytes: number } {
      const conditions = ['channel = @channel'];
      const params: Record<string, unknown> = { channel, ...page };
      if (filter.eligibility !== undefined) {
        conditions.push('eligibility = @eligibility');
        params.eligibility = filter.eligibility;
      }
      if (filter.updatedAfter !== undefined) {
        conditions.push('updated_at >= @updated_after');
        params.updated_after = filter.updatedAfter;
      }
      const where = conditions.join(' AND ');
      let count: number;
      if (filter.updatedAfter === undefined) {
        const byEligibility = counts.all(channel) as Array<{ eligibility: string; n: number }>;
        count = byEligibility
          .filter((c) => filter.eligibility === undefined || c.eligibility === filter.eligibility)
          .reduce((sum, c) => sum + c.n, 0);
      } else {
        count = (prepared(`SELECT COUNT(*) AS n FROM catalog_items WHERE ${where}`).get(params) as { n: number }).n;
      }
      if (page.offset >= count) return { items: [], count, knownBytes: 0 };
      // The page's seqs chosen on an index, then its rows joined in their order: no sort reads the documents.
      const rows = (column: string) =>
        prepared(
          `SELECT ${column} FROM (SELECT seq AS s FROM catalog_items WHERE ${where} ORDER BY seq DESC ` +
            `LIMIT @limit OFFSET @offset) AS page
        CROSS JOIN catalog_items ON catalog_items.seq = page.s ORDER BY page.s DESC`,
        ).pluck();
      let knownBytes = 0;
      for (const bytes of rows(`octet_length(document) - ${UPDATED_AT_BYTES}`).iterate(params))
        knownBytes += bytes as number;
      return { items: parsedLazily(() => rows('document').iterate(params) as Iterable<string>), count, knownBytes };
    },
  };
  return repository;
}

/** The most `,"updated_at":"…"` takes in a stored document: the list shows the rest. */
const UPDATED_AT_BYTES = 64;

/**
 * Each document parsed when it is asked for; none is read before the first is (an open read would hold the
 * connection).
 */
function* parsedLazily(documents: () => Iterable<string>): Generator<StoredCatalogItem> {
  for (const document of documents()) yield JSON.parse(document) as StoredCatalogItem;
}
