// What the sandbox reads from the contract beyond its schemas: the idempotency rules of create
// payment session (x-idempotency) and which operations' 400 enum has ServerError.
import { checkRules, type IdempotencyRules } from '../domain/idempotency.js';
import { listOperations, resolveRef, type OpenApiDocument } from './document.js';

export function idempotencyRules(contract: OpenApiDocument): IdempotencyRules {
  const create = listOperations(contract).find((o) => o.operation.operationId === 'createPaymentSession');
  const rules = create?.operation['x-idempotency'] as IdempotencyRules | undefined;
  if (!rules) throw new Error('The contract has no x-idempotency on createPaymentSession');
  checkRules(rules);
  return rules;
}

/** Whether an operation's 400 enum includes ServerError (else an injected fault answers 500). */
export function serverErrorIn400(contract: OpenApiDocument): (operationId: string) => boolean {
  const has = new Map<string, boolean>();
  for (const { operation } of listOperations(contract)) {
    const response = operation.responses['400'] ? resolveRef<{ content?: Record<string, { schema?: { $ref?: string } }> }>(contract, operation.responses['400']) : undefined;
    const ref = response?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? resolveRef<{ properties?: { error?: { enum?: string[] } } }>(contract, { $ref: ref }) : undefined;
    has.set(operation.operationId, schema?.properties?.error?.enum?.includes('ServerError') ?? false);
  }
  return (operationId) => has.get(operationId) ?? false;
}
