// A listener's report without `claim_id` (openapi/sandbox.yaml, Webhook listeners): every report
// names its claim since claims have ids, so one that names none comes from a `listen` of an earlier
// version, which still forwards from this sandbox. The schema's own "claim_id is required." does not
// say that, nor what to do; this refusal says both.
import { helperRefusal } from '../../../domain/errors.js';
import type { HelperOperations, InvalidBodyHandler } from '../../operation-types.js';

export const REPORT_WITHOUT_CLAIM =
  'claim_id is required: this listen is older than the sandbox; ' + "run the listen of the sandbox's version.";

type AttemptOperation = HelperOperations['createListenerAttempt'];

/** Refuses a report object that lacks claim_id with what to do; any other violation keeps the schema's refusal. */
export const answerReportWithoutClaim: InvalidBodyHandler<AttemptOperation> = (_violation, context) => {
  const body: unknown = context.body;
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (isObject && !Object.hasOwn(body, 'claim_id')) throw helperRefusal('InvalidRequest', REPORT_WITHOUT_CLAIM);
  return undefined;
};
