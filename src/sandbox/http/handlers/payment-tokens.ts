// The contract's payment-token and eligibility operations: create payment token (a provision token
// request), retrieve, list, update and delete a token, retrieve a provision token request and its
// eligibility.
import { provisionUrl } from '../../checkout/urls.js';
import { answerTooLarge, boundedAnswer, rendered } from '../../domain/answer-bounds.js';
import { isValidUrl } from '../../domain/create-session.js';
import { quoted, refusalsOf } from '../../domain/errors.js';
import { pageRequest, pageWindow, pagination } from '../../domain/listing.js';
import { actionOf, tokenView, updateActionOf, updateNeeds } from '../../domain/payment-tokens.js';
import { tokenListFilter } from '../../domain/token-listing.js';
import { customerKeyOf, divergingSetupFields, type ProvisionRequest } from '../../domain/provisioning.js';
import { PreRenderedJson, type ContractOperations, type Handlers } from '../operation-types.js';
import { activeToken, provisionRequestOf } from '../../app/lookups.js';
import {
  cancelTokenRequests,
  customerEligibility,
  lettersOf,
  lmnSkusOf,
  requestForToken,
} from '../../app/token-writes.js';

const refuseCreate = refusalsOf('createPaymentToken');

export function paymentTokenHandlers(): Handlers<ContractOperations> {
  return {
    async createPaymentToken(context, store) {
      const body = context.body;
      if (body.idempotency_key !== undefined) {
        const original = await store.provisionRequests.findByIdempotencyKey(context.channel, body.idempotency_key);
        if (original) {
          const diverging = divergingSetupFields(original.request!, body);
          if (diverging.length > 0) {
            throw refuseCreate(
              'IdempotencyViolation',
              `idempotency_key ${quoted(body.idempotency_key)} was already used with different values of: ` +
                `${diverging.join(', ')}.`,
            );
          }
          // The sandbox's choice for an identical retry: the same provision token request (openapi/sandbox.yaml).
          return { provision_token_request_id: original.id, redirect_url: provisionUrl(context.origin, original) };
        }
      }
      for (const field of ['success_url', 'failure_url'] as const) {
        if (!isValidUrl(body[field]))
          throw refuseCreate(
            'ValidationError',
            `${field} is not a valid URL: an absolute http or https URL is required.`,
          );
      }
      const id = context.ids.uuid();
      const customerKey = customerKeyOf(body.customer_email, `request:${id}`);
      if (
        body.customer_email !== undefined &&
        (await store.tokens.activeOf(context.channel, customerKey)) !== undefined
      ) {
        throw refuseCreate(
          'IdempotencyViolation',
          `customer_email ${quoted(body.customer_email)} already has a payment token provisioned; use update ` +
            `payment token instead.`,
        );
      }
      if (
        body.customer_email !== undefined &&
        (await store.provisionRequests.hasLetterAwaited(context.channel, customerKey))
      ) {
        throw refuseCreate(
          'WaitingForVerification',
          `The letter of medical necessity of ${quoted(body.customer_email)} is being verified; wait for the ` +
            `payment_token_updated webhook, then use update payment token.`,
        );
      }
      const request: ProvisionRequest = {
        id,
        channel: context.channel,
        created_at: context.now,
        purpose: 'setup',
        status: 'awaiting_customer',
        customer_key: customerKey,
        ...(body.idempotency_key !== undefined ? { idempotency_key: body.idempotency_key } : {}),
        request: body,
        needs: ['survey', 'card'],
        success_url: body.success_url,
        failure_url: body.failure_url,
        use_iframe: body.use_iframe === true,
        ...(body.customer_email !== undefined ? { customer_email: body.customer_email } : {}),
        ...(body.customer_name !== undefined ? { customer_name: body.customer_name } : {}),
        ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
      };
      await store.provisionRequests.insert(request);
      return { provision_token_request_id: id, redirect_url: provisionUrl(context.origin, request) };
    },

    async retrievePaymentToken(context, store) {
      return tokenView(await activeToken(store, context.channel, context.path.payment_token));
    },

    // A page larger than the sandbox sends at once is refused, its tokens read no further than the bound.
    async listPaymentTokens(context, store) {
      const { query } = context;
      const page = pageRequest(query);
      const { tokens, count } = await store.tokens.listed(context.channel, tokenListFilter(query), pageWindow(page));
      return new PreRenderedJson(
        boundedAnswer({
          prefix: '{"payment_tokens":',
          items: rendered(tokens, tokenView),
          suffix: `,"pagination":${JSON.stringify(pagination(page, count))}}`,
          tooLarge: () =>
            refusalsOf('listPaymentTokens')(
              'InvalidRequestParameter',
              answerTooLarge('ask for fewer payment tokens per page (a smaller page_size)'),
            ),
        }),
      );
    },

    async updatePaymentToken(context, store) {
      const token = await activeToken(store, context.channel, context.path.payment_token);
      const lmnSkus = await lmnSkusOf(store, context.channel, context.body.order_items ?? []);
      const needs = updateNeeds(
        context.body.update_card_info === true,
        lmnSkus,
        await lettersOf(store, context.channel, token.customer_key),
        context.now,
      );
      // An action still pending from an earlier update or 422 is still required: "None" would be untrue.
      if (token.next_action === 'TakeHealthSurvey') needs.unshift('survey');
      if (token.next_action === 'UpdatePaymentMethod') needs.push('card');
      if (needs.length === 0) return { next_action: updateActionOf(undefined) };
      const request = await requestForToken(store, context, token, 'update', [...new Set(needs)], lmnSkus);
      const first = request.needs.includes('survey') || request.status === 'awaiting_letter' ? 'survey' : 'card';
      // Until the customer finishes, a charge with the token answers 422 (the reference: "not guaranteed to work").
      await store.tokens.setNextAction(context.channel, token.token, actionOf(first));
      return {
        next_action: updateActionOf(first),
        redirect_url: provisionUrl(context.origin, request),
        provision_token_request_id: request.id,
      };
    },

    async deletePaymentToken(context, store) {
      const token = await activeToken(store, context.channel, context.path.payment_token);
      await store.tokens.setStatus(context.channel, token.token, 'deleted');
      await cancelTokenRequests(store, context.channel, token.token);
      return {};
    },

    async retrieveProvisionTokenRequest(context, store) {
      const request = await provisionRequestOf(store, context.channel, context.path.provision_token_request_id);
      return {
        payment_token: request.status === 'provisioned' ? (request.payment_token ?? null) : null,
        metadata: request.metadata ?? null,
      };
    },

    async retrieveProvisionRequestEligibility(context, store) {
      // A provision_token_request_id that is no UUID was refused by its schema (error-codes.ts).
      const request = await provisionRequestOf(store, context.channel, context.path.provision_token_request_id);
      return customerEligibility(store, context.channel, request.customer_key, context.now, request);
    },
  };
}
