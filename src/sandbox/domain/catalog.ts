// The product catalog: the seed every channel starts with, items as the contract shows them, and
// the review that changes an item's eligibility. Pure.
import type { components } from '../../../generated/schema.js';
import type { DomainEvent } from './types.js';

type Schemas = components['schemas'];
export type CatalogItem = Schemas['CatalogItem'];
export type ReviewedEligibility = 'eligible' | 'eligible_with_lmn' | 'ineligible';

/** An item as stored: the contract's fields, and when it last changed (for updated_after). */
export interface StoredCatalogItem extends CatalogItem {
  product_id: string;
  eligibility: ReviewedEligibility | null;
  created_at: string;
  reviewed_at: string | null;
  updated_at: string;
}

export interface NewItem {
  sku: string;
  name?: string;
  description?: string;
  gtin?: string | null;
  image_urls?: string[];
  url?: string;
  metadata?: string;
  eligibility?: ReviewedEligibility | null;
}

/** A small realistic catalog: items of each eligibility, and one awaiting review (openapi/sandbox.yaml). */
export const SEED_CATALOG: NewItem[] = (
  [
    {
      sku: 'BPM-200',
      name: 'Blood pressure monitor',
      description: 'Upper-arm blood pressure monitor with a wide-range cuff.',
      eligibility: 'eligible',
    },
    {
      sku: 'TH-10',
      name: 'Digital thermometer',
      description: 'Oral and underarm digital thermometer.',
      eligibility: 'eligible',
    },
    {
      sku: 'FAK-50',
      name: 'First aid kit',
      description: 'A 50-piece first aid kit for home and travel.',
      eligibility: 'eligible',
    },
    {
      sku: 'MSG-GUN-1',
      name: 'Percussion massage gun',
      description: 'Deep-tissue massage gun for muscle recovery.',
      eligibility: 'eligible_with_lmn',
    },
    {
      sku: 'VITD-2000',
      name: 'Vitamin D3 2000 IU',
      description: 'A 90-day supply of vitamin D3.',
      eligibility: 'eligible_with_lmn',
    },
    {
      sku: 'WLP-12',
      name: '12-week weight-loss program',
      description: 'A coached 12-week weight-loss program.',
      eligibility: 'eligible_with_lmn',
    },
    {
      sku: 'WHT-KIT',
      name: 'Teeth whitening kit',
      description: 'A cosmetic teeth whitening kit.',
      eligibility: 'ineligible',
    },
    {
      sku: 'AIRP-3',
      name: 'HEPA air purifier',
      description: 'A HEPA air purifier for allergy relief.',
      eligibility: null,
    },
  ] satisfies NewItem[]
).map((item) => ({
  ...item,
  url: `https://shop.example/products/${item.sku.toLowerCase()}`,
  image_urls: [`https://shop.example/images/${item.sku.toLowerCase()}.jpg`],
}));

/** A new item: unreviewed unless the sandbox's own seed or replacement says otherwise. */
export function newCatalogItem(input: NewItem, productId: string, now: string): StoredCatalogItem {
  const eligibility = input.eligibility ?? null;
  return {
    product_id: productId,
    sku: input.sku,
    name: input.name ?? input.sku,
    ...(input.description !== undefined ? { description: input.description } : {}),
    gtin: input.gtin ?? null,
    image_urls: input.image_urls ?? [],
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
    eligibility,
    created_at: now,
    reviewed_at: eligibility === null ? null : now,
    updated_at: now,
  };
}

export type ItemUpdate = Schemas['UpdateCatalogItemRequest'];

/** Update item: its fields are replaced, its eligibility is not re-categorized at once. */
export function updateCatalogItem(item: StoredCatalogItem, update: ItemUpdate, now: string): void {
  item.name = update.name;
  item.description = update.description;
  item.image_urls = update.image_urls;
  item.url = update.url;
  if (update.gtin !== undefined) item.gtin = update.gtin;
  if (update.metadata !== undefined) item.metadata = update.metadata;
  item.updated_at = now;
}

/** The service's review; the event when the eligibility changed, none when it confirmed it. */
export function reviewCatalogItem(
  item: StoredCatalogItem,
  eligibility: ReviewedEligibility,
  now: string,
): DomainEvent[] {
  const changed = item.eligibility !== eligibility;
  item.eligibility = eligibility;
  item.reviewed_at = now;
  item.updated_at = now;
  if (!changed) return [];
  return [
    {
      event_type: 'product_catalog.item.eligibility_updated',
      timestamp: now,
      data: { object: { sku: item.sku, name: item.name, eligibility, reviewed_at: now, created_at: item.created_at } },
    },
  ];
}

/** The item as the contract shows it (its last update is the sandbox's own). */
export function catalogItemView(item: StoredCatalogItem): CatalogItem {
  const { updated_at: _updated, ...view } = item;
  return view;
}

/** The list's `eligibility` filter: `not_eligible`, which one page writes, means `ineligible`. */
export const storedEligibility = (filter: string) => (filter === 'not_eligible' ? 'ineligible' : filter);
