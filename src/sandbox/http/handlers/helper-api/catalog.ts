// The helper API's handlers (its /sandbox/v1/ routes) of the product catalog
// (openapi/sandbox.yaml): replace a channel's catalog, and the service's review of an item, which
// queues product_catalog.item.eligibility_updated.
import { catalogItemView, reviewCatalogItem } from '../../../domain/catalog.js';
import { helperRefusal, notFound } from '../../../domain/errors.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';
import { queueEvents } from '../../../app/event-queue.js';

export function catalogHelperHandlers(): Handlers<HelperOperations> {
  return {
    async replaceCatalog(context, store) {
      const { items } = context.body;
      const seen = new Map<string, number>();
      items.forEach((item, i) => {
        const earlier = seen.get(item.sku);
        if (earlier !== undefined)
          throw helperRefusal('InvalidRequest', `items[${i}].sku ${item.sku} repeats items[${earlier}].sku.`);
        seen.set(item.sku, i);
      });
      await store.catalog.replace(context.channel, items, context.now, () => `prod_${context.ids.short()}`);
      return { items: items.length };
    },

    async reviewCatalogItem(context, store) {
      const item = await store.catalog.get(context.channel, context.body.sku);
      if (!item) throw notFound(`No catalog item with sku ${JSON.stringify(context.body.sku.slice(0, 200))}.`);
      const events = reviewCatalogItem(item, context.body.eligibility, context.now);
      await store.catalog.update(context.channel, item);
      await queueEvents(store, context, events);
      return catalogItemView(item);
    },
  };
}
