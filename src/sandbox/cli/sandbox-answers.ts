// What `listen` takes from a sandbox's answers, checked before use. The sandbox may be another
// machine's, or anyone in the middle of a plain-HTTP --sandbox: an answer of another shape than the
// helper document says (a null where an object goes, a number where a string goes, more deliveries
// than asked) must not crash the command with a stack trace, leave its listener behind, or make it
// open more requests at the receiver than its slots allow. A registration or a claim answer that is
// no sandbox's ends the run in one line; a delivery that is not one is skipped, and said.
import type { components } from '../../../generated/sandbox.js';

type Listener = components['schemas']['WebhookListener'];
type ClaimedDelivery = components['schemas']['ListenerDelivery'];
type RecordedAttempt = components['schemas']['ListenerAttemptOutcome'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** The first field of `value` whose check fails, said as "its <name> is not <what>"; undefined when none does. */
function firstFault(value: unknown, checks: Record<string, [(field: unknown) => boolean, string]>): string | undefined {
  if (!isObject(value)) return 'it is not an object';
  for (const [name, [check, what]] of Object.entries(checks)) {
    if (!check(value[name])) return `its ${name} is not ${what}`;
  }
  return undefined;
}

/** The document's patterns for a delivery's and a claim's ids: the report names both. */
const DELIVERY_ID = /^[0-9]{1,15}$/;
const CLAIM_ID = /^lc_[0-9A-Za-z]{1,40}$/;

/** What is wrong with a registration's answer, for the error; undefined when it is a listener. */
export function listenerFault(value: unknown): string | undefined {
  return firstFault(value, {
    id: [(id) => isString(id) && id !== '', 'a string'],
    secret: [isString, 'a string'],
    forward_url: [isString, 'a string'],
    event_types: [(types) => Array.isArray(types) && types.every(isString), 'a list of strings'],
  });
}

/** What is wrong with a claimed delivery, for the line that skips it; undefined when it can be forwarded. */
export function deliveryFault(value: unknown): string | undefined {
  return firstFault(value, {
    delivery_id: [(id) => isString(id) && DELIVERY_ID.test(id), 'a delivery id (1 to 15 digits)'],
    claim_id: [(id) => isString(id) && CLAIM_ID.test(id), 'a claim id (lc_…)'],
    event_type: [isString, 'a string'],
    object_id: [(id) => id === null || isString(id), 'a string or null'],
    attempt: [(n) => Number.isSafeInteger(n) && (n as number) >= 1, 'a whole number from 1'],
    request_body: [isString, 'a string'],
    request_headers: [isObject, 'an object'],
  });
}

/** What is wrong with a report's answer, for the attempt's line; undefined when it is the attempt's record. */
export function outcomeFault(value: unknown): string | undefined {
  const fault = firstFault(value, {
    attempt: [isObject, 'an object'],
    next_attempt_at: [(at) => at === null || (isString(at) && !Number.isNaN(Date.parse(at))), 'a time or null'],
  });
  if (fault !== undefined) return fault;
  const attempt = firstFault((value as Record<string, unknown>).attempt, {
    delivery_status: [isString, 'a string'],
    attempted_at: [(at) => isString(at) && !Number.isNaN(Date.parse(at)), 'a time'],
    latency_ms: [Number.isFinite, 'a number'],
  });
  return attempt === undefined ? undefined : `its attempt: ${attempt.replace(/^its /, '')}`;
}

/** A claim's answer sorted: what to forward, and one line for each delivery left out, and why. */
export interface Chosen {
  forward: ClaimedDelivery[];
  skipped: string[];
}

/** The longest value a skipped delivery's line quotes, and how many such lines an answer gets. */
const QUOTED_CHARS = 100;
const FAULT_LINES = 8;
const quoted = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
};

/**
 * The deliveries of a claim's answer to forward: the well-formed ones, each once, none already in
 * flight, and no more than `asked`: a sandbox hands at most its claim's `limit`, so that what the
 * receiver gets stays within the command line's slots. What is left out is said, in a few lines
 * however much was handed; undefined when the answer holds no list of deliveries at all.
 */
export function chooseDeliveries(answer: unknown, asked: number, inFlight: readonly number[]): Chosen | undefined {
  if (!isObject(answer) || !Array.isArray(answer.deliveries)) return undefined;
  const forward: ClaimedDelivery[] = [];
  const faults: string[] = [];
  let again = 0;
  let beyond = 0;
  const taken = new Set(inFlight);
  for (const [index, delivery] of answer.deliveries.entries()) {
    const fault = deliveryFault(delivery);
    if (fault !== undefined) {
      faults.push(
        `skipped delivery ${index + 1} of the sandbox's answer, which is not one: ${fault} ` +
          `(delivery_id ${quoted(isObject(delivery) ? delivery.delivery_id : delivery)})`,
      );
    } else if (taken.has(Number((delivery as ClaimedDelivery).delivery_id))) {
      again++;
    } else if (forward.length === asked) {
      beyond++;
    } else {
      taken.add(Number((delivery as ClaimedDelivery).delivery_id));
      forward.push(delivery as ClaimedDelivery);
    }
  }
  const skipped = faults.slice(0, FAULT_LINES);
  if (faults.length > FAULT_LINES) {
    skipped.push(`skipped ${faults.length - FAULT_LINES} more of the sandbox's answer, which are not deliveries`);
  }
  if (again > 0) {
    skipped.push(`skipped ${again} deliveries the sandbox handed twice, or while they are being forwarded`);
  }
  if (beyond > 0) {
    skipped.push(
      `skipped ${beyond} deliveries beyond the ${asked} asked for: the sandbox handed more; ` +
        'they come again when their lease ends',
    );
  }
  return { forward, skipped };
}

/** A registration's answer, once listenerFault found nothing. */
export const asListener = (value: unknown) => value as Listener;
/** A report's answer, once outcomeFault found nothing. */
export const asOutcome = (value: unknown) => value as RecordedAttempt;
