// The contract's product catalog operations: list, create, update and detail of items, and the
// checkout-method operation, whose request and response the contract leaves undocumented.
import { answerTooLarge, boundedAnswer, rendered } from '../../domain/answer-bounds.js';
import { catalogItemView, newCatalogItem, storedEligibility, updateCatalogItem } from '../../domain/catalog.js';
import { conflict, quoted, refusalsOf } from '../../domain/errors.js';
import { pageRequest, pageWindow, pagination, storedTime } from '../../domain/listing.js';
import { PreRenderedJson, type ContractOperations, type Handlers } from '../operation-types.js';
import { catalogItemOf } from '../../app/lookups.js';

export function catalogHandlers(): Handlers<ContractOperations> {
  return {
    async listCatalogItems(context, store) {
      const { query } = context;
      const page = pageRequest(query);
      const updatedAfter = storedTime(query.updated_after, 'updated_after');
      const { items, count, knownBytes } = await store.catalog.listed(
        context.channel,
        {
          ...(query.eligibility !== undefined ? { eligibility: storedEligibility(query.eligibility) } : {}),
          ...(updatedAfter !== undefined ? { updatedAfter } : {}),
        },
        pageWindow(page),
      );
      // A page larger than the sandbox sends at once is refused, from the stored lengths when they tell.
      return new PreRenderedJson(
        boundedAnswer({
          prefix: '{"data":',
          items: rendered(items, catalogItemView),
          suffix: `,"pagination":${JSON.stringify(pagination(page, count))}}`,
          knownBytes,
          tooLarge: () =>
            refusalsOf('listCatalogItems')(
              'InvalidRequestParameter',
              answerTooLarge('ask for fewer items per page (a smaller page_size)'),
            ),
        }),
      );
    },

    async createCatalogItem(context, store) {
      const { sku, name, description, gtin, image_urls: imageUrls } = context.body;
      if (sku.trim() === '') throw refusalsOf('createCatalogItem')('InvalidRequestParameter', 'sku must not be empty.');
      if (await store.catalog.get(context.channel, sku))
        throw conflict(`An item with sku ${quoted(sku)} already exists; use update item to change it.`);
      // A new item awaits the service's review: its eligibility is null until then.
      const item = newCatalogItem(
        {
          sku,
          ...(name !== undefined ? { name } : {}),
          ...(description !== undefined ? { description } : {}),
          ...(gtin !== undefined ? { gtin } : {}),
          ...(imageUrls !== undefined ? { image_urls: imageUrls } : {}),
        },
        `prod_${context.ids.short()}`,
        context.now,
      );
      await store.catalog.insert(context.channel, item);
      return catalogItemView(item);
    },

    async updateCatalogItem(context, store) {
      const item = await catalogItemOf(store, context.channel, context.body.sku);
      updateCatalogItem(item, context.body, context.now);
      await store.catalog.update(context.channel, item);
      return {};
    },

    async retrieveCatalogItem(context, store) {
      return catalogItemView(await catalogItemOf(store, context.channel, context.body.sku));
    },

    retrieveCheckoutMethod() {
      // Neither its request nor its response is documented: the sandbox answers an object with no field
      // (openapi/sandbox.yaml).
      return {};
    },
  };
}
