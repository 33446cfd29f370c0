// Create payment session's idempotent replay (the reference's rules 1, 2 and 4), in one place: the
// create handler asks it first, and the operation pipeline hands it the bodies their schema refuses.
// Rule 4 says a retry that differs only in fields not compared returns the original session, so
// a retry that breaks the schema only there (customer_state: "California") replays as well; the
// same body without an original is refused as any other.
import { checkoutUrl } from '../checkout/urls.js';
import { quoted, refusalsOf } from '../domain/errors.js';
import { divergingFields, ignoredByReplay, type IdempotencyRules } from '../domain/idempotency.js';
import type { CreateSessionRequest } from '../domain/types.js';
import type { SandboxStore } from '../store/store.js';

/** Where a create is asked: the caller's channel, and the sandbox's address for redirect URLs. */
export interface ReplayContext {
  channel: string;
  origin: string;
}

/** What a replayed create answers: the original session's id and its redirect URL (a plain object type). */
export type ReplayedCreate = { id: string; redirect_url: string };

export interface CreateReplay {
  /**
   * The original session's answer when the request retries an earlier create with the same key
   * (no new value applied); IdempotencyViolation when a compared field differs; undefined when
   * there is no key or no original, and the session is to be created.
   */
  answerRetry(
    store: SandboxStore,
    context: ReplayContext,
    request: CreateSessionRequest,
  ): Promise<ReplayedCreate | undefined>;
  /**
   * A body that breaks its schema only in `violatedFields`, all of which a replay ignores, still
   * replays its original; undefined otherwise (the refusal stands).
   */
  answerInvalidBody(
    store: SandboxStore,
    context: ReplayContext,
    request: CreateSessionRequest,
    violatedFields: readonly string[],
  ): Promise<ReplayedCreate | undefined>;
}

const refuseCreate = refusalsOf('createPaymentSession');

export function createReplay(rules: IdempotencyRules): CreateReplay {
  const ignored = ignoredByReplay(rules);

  const answerRetry: CreateReplay['answerRetry'] = async (store, context, request) => {
    if (request.idempotency_key === undefined) return undefined;
    const original = await store.sessions.findByIdempotencyKey(context.channel, request.idempotency_key);
    if (!original) return undefined;
    const diverging = divergingFields(original.request, request, rules);
    if (diverging.length > 0) {
      const key = quoted(request.idempotency_key);
      throw refuseCreate(
        'IdempotencyViolation',
        `idempotency_key ${key} was already used with different values of: ${diverging.join(', ')}.`,
      );
    }
    return { id: original.id, redirect_url: checkoutUrl(context.origin, original) };
  };

  return {
    answerRetry,
    async answerInvalidBody(store, context, request, violatedFields) {
      // '' is the body as a whole (not an object, or a field the schema forbids): never excused.
      const onlyIgnoredFields = violatedFields.every((field) => field !== '' && ignored(field));
      return onlyIgnoredFields ? answerRetry(store, context, request) : undefined;
    },
  };
}
