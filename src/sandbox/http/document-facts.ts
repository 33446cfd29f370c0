// What the sandbox reads from the contract beyond its schemas: the idempotency rules of create
// payment session (x-idempotency) and each operation's 400 codes.
import { checkRules, type IdempotencyRules } from '../domain/idempotency.js';
import { listOperations, resolveRef, type OpenApiDocument } from './document.js';

export function idempotencyRules(contract: OpenApiDocument): IdempotencyRules {
  const create = listOperations(contract).find((o) => o.operation.operationId === 'createPaymentSession');
  const rules = create?.operation['x-idempotency'] as IdempotencyRules | undefined;
  if (!rules) throw new Error('The contract has no x-idempotency on createPaymentSession');
  checkRules(rules);
  return rules;
}

/** Each operation's 400 `error` enum ([] when it declares no 400), for the fault helper. */
export function codes400(contract: OpenApiDocument): (operationId: string) => readonly string[] {
  const codes = new Map<string, string[]>();
  for (const { operation } of listOperations(contract)) {
    const response = operation.responses['400'] ? resolveRef<{ content?: Record<string, { schema?: { $ref?: string } }> }>(contract, operation.responses['400']) : undefined;
    const ref = response?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? resolveRef<{ properties?: { error?: { enum?: string[] } } }>(contract, { $ref: ref }) : undefined;
    codes.set(operation.operationId, schema?.properties?.error?.enum ?? []);
  }
  return (operationId) => codes.get(operationId) ?? [];
}
