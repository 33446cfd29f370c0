// Idempotency of create_payment_session (reference rules 1-4), driven by the document's
// x-idempotency lists so that the rules and the contract cannot drift apart.
import type { CreateSessionRequest } from './types.js';

export interface IdempotencyRules {
  /** The request field that carries the key. */
  key: string;
  compared: string[];
  case_insensitive: string[];
  compared_only_when_present_on_retry: string[];
  compared_only_when_present_on_original: string[];
  /**
   * Compared fields that are not compared when the named field is present on the original or the
   * retry: with a payment_token, the request's customer_email is ignored (the token's user is the
   * customer), so it cannot make a retry diverge.
   */
  not_compared_with?: Record<string, string[]>;
}

type Getter = (request: CreateSessionRequest) => unknown;

const DEFAULT_KIND = 'one_time_payment';

/** How to read each compared field; derived fields (is_free_trial) and defaults live here. */
const GETTERS: Record<string, Getter> = {
  customer_email: (r) => r.customer_email,
  total_amount: (r) => r.total_amount,
  success_url: (r) => r.success_url,
  failure_url: (r) => r.failure_url,
  kind: (r) => r.kind ?? DEFAULT_KIND,
  payment_token: (r) => r.payment_token,
  'display_next_bill_info.total_amount': (r) => r.display_next_bill_info?.total_amount,
  'display_next_bill_info.date': (r) => r.display_next_bill_info?.date,
  is_free_trial: (r) => (r.display_next_bill_info ? true : undefined),
  'order_items.name': (r) => r.order_items.map((i) => i.name),
  'order_items.sku': (r) => r.order_items.map((i) => i.sku),
  'order_items.quantity': (r) => r.order_items.map((i) => i.quantity),
  'order_items.price': (r) => r.order_items.map((i) => i.price),
  'order_items.amount_details': (r) =>
    r.order_items.map((i) => [i.amount_details.total_additional_charges, i.amount_details.total_discounts]),
};

/** The top-level request field each compared field is read from. */
const ROOTS: Record<string, string> = { is_free_trial: 'display_next_bill_info' };
const rootOf = (field: string) => ROOTS[field] ?? field.split('.')[0]!;

/**
 * Whether a top-level request field takes no part in matching a retry to its original: a retry may
 * carry anything there (even a value the schema refuses) and still replays the original (rule 4).
 */
export function ignoredByReplay(rules: IdempotencyRules): (field: string) => boolean {
  const compared = new Set(rules.compared.map(rootOf));
  return (field) => !compared.has(field) && field !== rules.key;
}

/** Fails at start-up when the document names a compared field this module cannot read. */
export function checkRules(rules: IdempotencyRules): void {
  const unknown = rules.compared.filter((field) => !(field in GETTERS));
  if (unknown.length > 0)
    throw new Error(`x-idempotency compares fields the sandbox cannot read: ${unknown.join(', ')}`);
}

const normalize = (field: string, value: unknown, rules: IdempotencyRules) =>
  rules.case_insensitive.includes(field) && typeof value === 'string' ? value.toLowerCase() : value;

/** The compared fields on which a retry differs from the original; empty when it is the same request. */
export function divergingFields(
  original: CreateSessionRequest,
  retry: CreateSessionRequest,
  rules: IdempotencyRules,
): string[] {
  const present = (field: string) =>
    (original as Record<string, unknown>)[field] !== undefined ||
    (retry as Record<string, unknown>)[field] !== undefined;
  const overridden = new Set(
    Object.entries(rules.not_compared_with ?? {})
      .filter(([field]) => present(field))
      .flatMap(([, fields]) => fields),
  );
  return rules.compared.filter((field) => {
    if (overridden.has(field)) return false;
    const read = GETTERS[field]!;
    const before = read(original);
    const after = read(retry);
    if (rules.compared_only_when_present_on_retry.includes(field) && after === undefined) return false;
    if (rules.compared_only_when_present_on_original.includes(field) && before === undefined) return false;
    return JSON.stringify(normalize(field, before, rules)) !== JSON.stringify(normalize(field, after, rules));
  });
}
