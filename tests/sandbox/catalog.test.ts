// The product catalog in the sandbox: the seed, the list with its filters at their boundaries,
// create (409 on a duplicate sku), update (not re-categorized), detail, checkout method, and the
// helpers that replace the catalog and review an item (which queues its eligibility event).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const list = (query = '', options = {}) => s.get(`/api/v1/product_catalog/items/list${query}`, options);
const skus = async (query = '', options = {}) =>
  (await list(query, options)).body.data.map((item: { sku: string }) => item.sku);
const create = (body: unknown, options = {}) => s.post('/api/v1/product_catalog/items/create', body, options);
const update = (body: unknown) => s.post('/api/v1/product_catalog/items/update', body);
const detail = (sku: unknown, options = {}) => s.post('/api/v1/product_catalog/items/detail', { sku }, options);
const review = (sku: string, eligibility: string) => s.post('/sandbox/v1/catalog/items/review', { sku, eligibility });
const SEED = ['AIRP-3', 'WHT-KIT', 'WLP-12', 'VITD-2000', 'MSG-GUN-1', 'FAK-50', 'TH-10', 'BPM-200'];
const updateOf = (sku: string) => ({
  sku,
  name: 'Blood pressure monitor, XL cuff',
  description: 'Now with an XL cuff.',
  image_urls: ['https://shop.example/bpm-xl.jpg'],
  url: 'https://shop.example/products/bpm-200-xl',
});

describe('list catalog items', () => {
  it('starts every channel with the seed catalog, newest first, counted', async () => {
    const { body } = await list();
    expect(body.data.map((item: { sku: string }) => item.sku)).toEqual(SEED);
    expect(body.pagination).toEqual({ current_page: 1, page_size: 30, count: 8, last_page: 1 });
    expect(body.data.at(-1)).toEqual({
      product_id: expect.stringMatching(/^prod_/),
      sku: 'BPM-200',
      name: 'Blood pressure monitor',
      description: expect.any(String),
      gtin: null,
      image_urls: ['https://shop.example/images/bpm-200.jpg'],
      url: 'https://shop.example/products/bpm-200',
      eligibility: 'eligible',
      created_at: expect.any(String),
      reviewed_at: expect.any(String),
    });
    expect(await skus('', { key: OTHER_KEY })).toEqual(SEED);
  });

  it('filters by eligibility and leaves out items awaiting review; not_eligible means ineligible', async () => {
    expect(await skus('?eligibility=eligible')).toEqual(['FAK-50', 'TH-10', 'BPM-200']);
    expect(await skus('?eligibility=eligible_with_lmn')).toEqual(['WLP-12', 'VITD-2000', 'MSG-GUN-1']);
    expect(await skus('?eligibility=ineligible')).toEqual(['WHT-KIT']);
    expect(await skus('?eligibility=not_eligible')).toEqual(['WHT-KIT']);
    expect((await list('?eligibility=eligible')).body.pagination.count).toBe(3);
  });

  it('filters updated_after at or after the last update', async () => {
    const before = (await s.get('/sandbox/v1/clock')).body.now as string;
    await s.post('/sandbox/v1/clock/advance', { seconds: 60 });
    await update(updateOf('BPM-200'));
    const updatedAt = new Date(Date.parse(before) + 60_000);
    const after = await list(
      `?updated_after=${encodeURIComponent(new Date(updatedAt.getTime() - 1000).toISOString())}`,
    );
    expect(after.body.data.map((item: { sku: string }) => item.sku)).toEqual(['BPM-200']);
    expect(after.body.pagination.count).toBe(1);
    expect(
      await skus(`?updated_after=${encodeURIComponent(new Date(updatedAt.getTime() + 5000).toISOString())}`),
    ).toEqual([]);
    expect(
      await skus(`?updated_after=${encodeURIComponent(before.replace('Z', '+00:00'))}&eligibility=eligible`),
    ).toEqual(['BPM-200']);
  });

  it('pages in order', async () => {
    expect(await skus('?page=2&page_size=3')).toEqual(['VITD-2000', 'MSG-GUN-1', 'FAK-50']);
    expect((await list('?page=3&page_size=3')).body.pagination).toEqual({
      current_page: 3,
      page_size: 3,
      count: 8,
      last_page: 3,
    });
    expect(await skus('?page=4&page_size=3')).toEqual([]);
  });

  it.each(['eligibility=maybe', 'updated_after=yesterday', 'page=0', 'page_size=0'])(
    'answers InvalidRequestParameter for %s',
    async (query) => {
      const reply = await list(`?${query}`);
      expect({ status: reply.status, error: reply.body.error }).toEqual({
        status: 400,
        error: 'InvalidRequestParameter',
      });
    },
  );
});

describe('create, update, detail', () => {
  it('creates an item that awaits review', async () => {
    const { status, body } = await create({
      sku: 'NEB-1',
      name: 'Nebulizer',
      description: 'A compact nebulizer.',
      gtin: '00012345678905',
      image_urls: [],
      eligibility: 'eligible',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      sku: 'NEB-1',
      name: 'Nebulizer',
      gtin: '00012345678905',
      eligibility: null,
      reviewed_at: null,
    });
    expect((await detail('NEB-1')).body).toEqual(body);
    expect(await skus('?eligibility=eligible')).not.toContain('NEB-1');
    expect((await skus())[0]).toBe('NEB-1');
  });

  it('answers 409 for a duplicate sku in the channel, and not in another channel', async () => {
    const reply = await create({ sku: 'TH-10', name: 'Thermometer again' });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ error: 'Conflict', message: expect.stringContaining('TH-10') });
    await create({ sku: 'ONLY-DEV' });
    expect((await create({ sku: 'ONLY-DEV' }, { key: OTHER_KEY })).status).toBe(200);
  });

  it.each([[{}], [{ sku: 7 }], [{ sku: '' }], [{ sku: 'X', image_urls: 'https://a.example/x.jpg' }]])(
    'answers InvalidRequestParameter for %j',
    async (body) => {
      const reply = await create(body);
      expect({ status: reply.status, error: reply.body.error }).toEqual({
        status: 400,
        error: 'InvalidRequestParameter',
      });
    },
  );

  it('updates the fields, answers {}, and does not re-categorize the item at once', async () => {
    const reply = await update({ ...updateOf('MSG-GUN-1'), gtin: null, metadata: '{"line":"recovery"}' });
    expect(reply).toMatchObject({ status: 200, body: {} });
    expect((await detail('MSG-GUN-1')).body).toMatchObject({
      name: 'Blood pressure monitor, XL cuff',
      url: 'https://shop.example/products/bpm-200-xl',
      metadata: '{"line":"recovery"}',
      eligibility: 'eligible_with_lmn',
    });
  });

  it.each(['sku', 'name', 'description', 'image_urls', 'url'])('update requires %s', async (field) => {
    const body: Record<string, unknown> = updateOf('BPM-200');
    delete body[field];
    const reply = await update(body);
    expect({ status: reply.status, error: reply.body.error }).toEqual({
      status: 400,
      error: 'InvalidRequestParameter',
    });
    expect(reply.body.message).toContain(field);
  });

  it('answers 404 for a sku the channel does not have', async () => {
    expect((await update(updateOf('NOPE'))).status).toBe(404);
    expect((await detail('NOPE')).status).toBe(404);
    await create({ sku: 'DEV-ONLY' });
    expect((await detail('DEV-ONLY', { key: OTHER_KEY })).status).toBe(404);
    expect((await detail(12)).body.error).toBe('InvalidRequestParameter');
  });

  it('answers the checkout method with an object, the contract documenting no field', async () => {
    expect(await s.post('/api/v1/product_catalog/service_checkout_method', { sku: 'BPM-200' })).toMatchObject({
      status: 200,
      body: {},
    });
    expect((await s.post('/api/v1/product_catalog/service_checkout_method')).status).toBe(200);
    // Its fields are undocumented, not its type: a body that is no object gets the inferred 400.
    expect((await s.call('POST', '/api/v1/product_catalog/service_checkout_method', { raw: '[1' })).body.error).toBe(
      'InvalidRequestParameter',
    );
  });
});

describe("the checkout method's body is an object, as the document says", () => {
  it('POST /api/v1/product_catalog/service_checkout_method with [null, null] is refused with its 400', async () => {
    const { status, body } = await s.post('/api/v1/product_catalog/service_checkout_method', [null, null]);
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });

  it.each([
    ['a string', '"x"'],
    ['a number', '0'],
    ['null', 'null'],
    ['malformed JSON', '{"a":'],
  ])('refuses %s', async (_, raw) => {
    const { status, body } = await s.call('POST', '/api/v1/product_catalog/service_checkout_method', { raw });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
  });

  it('answers an object, with any fields, and no body at all', async () => {
    expect((await s.post('/api/v1/product_catalog/service_checkout_method', {})).status).toBe(200);
    expect((await s.post('/api/v1/product_catalog/service_checkout_method', { sku: 'BPM-200', any: [1] })).status).toBe(
      200,
    );
    expect((await s.post('/api/v1/product_catalog/service_checkout_method')).status).toBe(200);
  });
});

describe('helpers: review and replace', () => {
  it('a review changes the eligibility and queues product_catalog.item.eligibility_updated; a confirming review is silent', async () => {
    const reviewed = await review('AIRP-3', 'eligible_with_lmn');
    expect(reviewed.body).toMatchObject({
      sku: 'AIRP-3',
      eligibility: 'eligible_with_lmn',
      reviewed_at: expect.any(String),
    });
    const events = await s.outbox('product_catalog.item.eligibility_updated');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toEqual({
      webhook_delivery_id: expect.stringMatching(/^dlv_/),
      event_type: 'product_catalog.item.eligibility_updated',
      timestamp: reviewed.body.reviewed_at,
      data: {
        object: {
          sku: 'AIRP-3',
          name: 'HEPA air purifier',
          eligibility: 'eligible_with_lmn',
          reviewed_at: reviewed.body.reviewed_at,
          created_at: reviewed.body.created_at,
        },
      },
    });
    await review('AIRP-3', 'eligible_with_lmn');
    expect(await s.outbox('product_catalog.item.eligibility_updated')).toHaveLength(1);
    expect(await skus('?eligibility=eligible_with_lmn')).toContain('AIRP-3');
    expect((await review('NOPE', 'eligible')).status).toBe(404);
    expect((await review('AIRP-3', 'maybe')).body.error).toBe('InvalidRequest');
  });

  it("replaces the catalog of the caller's channel only; a reset brings the seed back", async () => {
    const replaced = await s.call('PUT', '/sandbox/v1/catalog', {
      body: {
        items: [
          { sku: 'A', name: 'A', eligibility: 'eligible' },
          { sku: 'B', name: 'B' },
        ],
      },
    });
    expect(replaced.body).toEqual({ items: 2 });
    expect(await skus()).toEqual(['B', 'A']);
    expect(await skus('?eligibility=eligible')).toEqual(['A']);
    expect(await skus('', { key: OTHER_KEY })).toEqual(SEED);
    const duplicate = await s.call('PUT', '/sandbox/v1/catalog', {
      body: {
        items: [
          { sku: 'A', name: 'A' },
          { sku: 'A', name: 'A2' },
        ],
      },
    });
    expect(duplicate.body).toEqual({ error: 'InvalidRequest', message: 'items[1].sku A repeats items[0].sku.' });
    expect(await skus()).toEqual(['B', 'A']);
    await s.post('/sandbox/v1/reset');
    expect(await skus()).toEqual(SEED);
  });

  it('an emptied catalog stays empty', async () => {
    await s.call('PUT', '/sandbox/v1/catalog', { body: { items: [] } });
    expect((await list()).body).toEqual({
      data: [],
      pagination: { current_page: 1, page_size: 30, count: 0, last_page: 1 },
    });
  });
});

describe('messages', () => {
  it('names a union type in words and never echoes a long input whole', async () => {
    const reply = await s.post('/api/v1/product_catalog/items/update', { ...updateOf('BPM-200'), gtin: 5 });
    expect(reply.body.message).toBe('gtin must be a string or null.');
    const long = await detail('x'.repeat(5000));
    expect(long.status).toBe(404);
    expect(long.body.message.length).toBeLessThan(200);
  });
});
