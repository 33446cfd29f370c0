// A catalog item as created and updated: the fields it carries only when given, the defaults of
// an item created bare (openapi/sandbox.yaml, Catalog), and what an update leaves alone.
import { describe, expect, it } from 'vitest';
import { newCatalogItem, updateCatalogItem } from '../../src/sandbox/domain/catalog.js';

const now = '2026-11-25T08:00:00.000Z';
const later = '2026-11-26T08:00:00.000Z';

describe('newCatalogItem', () => {
  it('gives a bare item its sku as name, gtin null, no images, no review, and no other field', () => {
    expect(newCatalogItem({ sku: 'TH-10' }, 'p-1', now)).toStrictEqual({
      product_id: 'p-1',
      sku: 'TH-10',
      name: 'TH-10',
      gtin: null,
      image_urls: [],
      eligibility: null,
      created_at: now,
      reviewed_at: null,
      updated_at: now,
    });
  });

  it('keeps every field given', () => {
    const input = {
      sku: 'TH-10',
      name: 'Digital thermometer',
      description: 'Oral.',
      gtin: '00012345678905',
      image_urls: ['https://shop.example/th.jpg'],
      url: 'https://shop.example/th',
      metadata: '{"line":"care"}',
      eligibility: 'eligible' as const,
    };
    expect(newCatalogItem(input, 'p-1', now)).toStrictEqual({
      product_id: 'p-1',
      ...input,
      created_at: now,
      reviewed_at: now,
      updated_at: now,
    });
  });
});

describe('updateCatalogItem', () => {
  const stored = () => newCatalogItem({ sku: 'TH-10', gtin: '00012345678905', metadata: 'm-1' }, 'p-1', now);
  const update = {
    sku: 'TH-10',
    name: 'Thermometer',
    description: 'Oral.',
    image_urls: [],
    url: 'https://shop.example/th',
  };

  it('keeps the gtin and metadata an update leaves out', () => {
    const item = stored();
    updateCatalogItem(item, update, later);
    expect(item).toMatchObject({ name: 'Thermometer', gtin: '00012345678905', metadata: 'm-1', updated_at: later });
  });

  it('replaces the gtin and metadata an update gives, null included', () => {
    const item = stored();
    updateCatalogItem(item, { ...update, gtin: null, metadata: 'm-2' }, later);
    expect(item).toMatchObject({ gtin: null, metadata: 'm-2' });
    updateCatalogItem(item, { ...update, gtin: '00000000000017' }, later);
    expect(item.gtin).toBe('00000000000017');
  });
});
