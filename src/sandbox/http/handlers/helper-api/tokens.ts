// The helper API's handlers (its /sandbox/v1/ routes) of payment tokens (openapi/sandbox.yaml): the
// customer finishes a provision request's page, the clinician decides its letter, inspect a
// request, and the token-keyed eligibility.
import { acceptCard, defaultCard } from '../../../domain/cards.js';
import { decideByClinician } from '../../../domain/provisioning.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';
import { finishProvisionRequest } from '../../../app/customer-actions.js';
import { activeToken, provisionRequestOf } from '../../../app/lookups.js';
import { applyOutcome, customerEligibility, inspectRequest } from '../../../app/token-writes.js';

export function tokenHelperHandlers(): Handlers<HelperOperations> {
  return {
    async inspectProvisionRequest(context, store) {
      return inspectRequest(
        store,
        context.origin,
        await provisionRequestOf(store, context.channel, context.path.provision_token_request_id),
      );
    },

    async completeProvisionRequest(context, store) {
      const request = await provisionRequestOf(store, context.channel, context.path.provision_token_request_id);
      const body = context.body ?? {};
      const entered = body.card ? acceptCard(body.card, context.now) : undefined;
      const card = entered ?? (request.needs.includes('card') ? defaultCard(context.now) : undefined);
      // The survey's letter covers the items that need one: a setup's from the catalog, an update's or a fix's own.
      const catalogLmn = await store.catalog.lmnSkus(context.channel);
      const asked = request.purpose === 'setup' ? catalogLmn : (request.skus ?? []);
      const lmnSkus = body.skus
        ? body.skus.filter((sku, i, all) => catalogLmn.includes(sku) && all.indexOf(sku) === i)
        : asked;
      await finishProvisionRequest(store, context, request, {
        cancel: body.cancel === true,
        eligible: body.eligible ?? true,
        ...(card ? { card } : {}),
        lmnSkus,
        letter: body.letter ?? 'pending',
        ...(body.lmn_expires_at !== undefined ? { lmnExpiresOn: body.lmn_expires_at } : {}),
      });
      return inspectRequest(store, context.origin, request);
    },

    async decideLetter(context, store) {
      const request = await provisionRequestOf(store, context.channel, context.path.provision_token_request_id);
      const { decided, provision } = decideByClinician(
        request,
        context.body.decision,
        context.now,
        context.body.lmn_expires_at,
      );
      const skus = (await store.letters.ofRequest(request.id))?.skus ?? [];
      await applyOutcome(store, context, request, {
        letter: { ...decided, skus },
        ...(provision ? { provision } : {}),
      });
      return inspectRequest(store, context.origin, request);
    },

    async retrieveTokenEligibility(context, store) {
      const token = await activeToken(store, context.channel, context.path.payment_token);
      return customerEligibility(store, context.channel, token.customer_key, context.now);
    },
  };
}
