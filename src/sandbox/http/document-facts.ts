// What the sandbox reads from the documents beyond their schemas: the idempotency rules of create
// payment session (x-idempotency), each operation's 400 codes, the headers a request may carry, and
// which operations take the admin key.
import { checkRules, type IdempotencyRules } from '../domain/idempotency.js';
import { type LocatedOperation, listOperations, resolveRef, type OpenApiDocument } from './document.js';

/** The scheme of the admin key in the helper document: an operation that declares it takes that key, and no other. */
const ADMIN_SCHEME = 'SandboxAdminKey';

export const takesAdminKey = (entry: LocatedOperation) =>
  entry.operation.security?.some((requirement) => ADMIN_SCHEME in requirement) === true;

export function idempotencyRules(contract: OpenApiDocument): IdempotencyRules {
  const create = listOperations(contract).find((o) => o.operation.operationId === 'createPaymentSession');
  const rules = create?.operation['x-idempotency'] as IdempotencyRules | undefined;
  if (!rules) throw new Error('The contract has no x-idempotency on createPaymentSession');
  checkRules(rules);
  return rules;
}

/**
 * The documented values of an enum schema: its `enum`, or the known branch of an open enum
 * (`anyOf: [{type: string, enum}, {type: string}]`, which every enum of an answer is). [] for any other schema.
 */
export function documentedValues(
  schema: { enum?: unknown[]; anyOf?: Array<{ enum?: unknown[] }> } | undefined,
): string[] {
  const values = schema?.enum ?? schema?.anyOf?.find((branch) => Array.isArray(branch.enum))?.enum ?? [];
  return values.filter((value): value is string => typeof value === 'string');
}

/** Each operation's 400 `error` codes, documented ([] when it declares no 400), for the fault helper. */
export function codes400(contract: OpenApiDocument): (operationId: string) => readonly string[] {
  const codes = new Map<string, string[]>();
  for (const { operation } of listOperations(contract)) {
    const response = operation.responses['400']
      ? resolveRef<{ content?: Record<string, { schema?: { $ref?: string } }> }>(contract, operation.responses['400'])
      : undefined;
    const ref = response?.content?.['application/json']?.schema?.$ref;
    const schema = ref
      ? resolveRef<{ properties?: { error?: Parameters<typeof documentedValues>[0] } }>(contract, { $ref: ref })
      : undefined;
    codes.set(operation.operationId, documentedValues(schema?.properties?.error));
  }
  return (operationId) => codes.get(operationId) ?? [];
}

/**
 * The headers a browser's request to the documents' operations may carry beyond the CORS-safelisted
 * ones, lower-case and sorted: each header security scheme, each header parameter, and
 * `content-type` when an operation takes a body (a JSON body is not safelisted).
 */
export function requestHeaders(documents: OpenApiDocument[]): string[] {
  const names = new Set<string>();
  for (const doc of documents) {
    for (const scheme of Object.values(doc.components.securitySchemes ?? {}) as Array<{
      type?: string;
      in?: string;
      name?: string;
      scheme?: string;
    }>) {
      if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) names.add(scheme.name.toLowerCase());
      // A bearer token (the admin key) travels in Authorization.
      if (scheme.type === 'http') names.add('authorization');
    }
    for (const { operation, parameters } of listOperations(doc)) {
      for (const parameter of parameters) if (parameter.in === 'header') names.add(parameter.name.toLowerCase());
      if (operation.requestBody) names.add('content-type');
    }
  }
  return [...names].sort();
}
