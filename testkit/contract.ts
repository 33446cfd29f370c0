// The bundled contract, loaded once, with the sandbox's own document walker and ajv validators, and
// the one check of a response against a document: shared by every test that checks a payload.
import {
  CONTRACT_FILE,
  listOperations,
  loadDocument as loadOpenApi,
  repoRoot,
  resolveRef,
  SchemaValidators,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
} from '../src/sandbox/http/document.js';

export { repoRoot, type OpenApiDocument };
export type MediaType = MediaTypeObject;
export type Operation = OperationObject;

export function loadDocument(file = CONTRACT_FILE): OpenApiDocument {
  return loadOpenApi(file);
}

/** The contract, which has webhooks (the helpers' document has none). */
export const contract = loadDocument() as OpenApiDocument & Required<Pick<OpenApiDocument, 'webhooks'>>;

/** Every operation of the document's paths, with its method and path. */
export function operations(doc: OpenApiDocument = contract): Array<{ method: string; path: string; op: Operation }> {
  return listOperations(doc).map(({ method, path, operation }) => ({ method, path, op: operation }));
}

export function operationById(operationId: string, doc: OpenApiDocument = contract) {
  const found = operations(doc).find((o) => o.op.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId} in the contract`);
  return found;
}

/** Follows a local `#/components/...` reference. */
export function resolve<T>(node: T | { $ref?: string }, doc: OpenApiDocument = contract): T {
  return resolveRef<T>(doc, node);
}

const validatorsOf = new Map<OpenApiDocument, SchemaValidators>();
const validators = (doc: OpenApiDocument) => {
  let found = validatorsOf.get(doc);
  if (!found) {
    found = new SchemaValidators(doc);
    validatorsOf.set(doc, found);
  }
  return found;
};

/** A validator for the schema at a JSON pointer of the document, e.g. `#/components/schemas/Dispute`. */
export const validatorAt = (pointer: string, doc: OpenApiDocument = contract) => validators(doc).at(pointer);

/** Validates a body against a media type's schema; returns ajv's errors, or [] when valid. */
export function violations(
  schema: { $ref?: string } | undefined,
  value: unknown,
  doc: OpenApiDocument = contract,
): string[] {
  if (!schema?.$ref) throw new Error('Expected a named schema ($ref)');
  const validate = validatorAt(schema.$ref, doc);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/**
 * Checks a response against the document that declares its operation: its status must be declared,
 * and its body must validate against that status's schema. Returns the problems found.
 */
export function responseViolations(
  operationId: string,
  status: number,
  body: unknown,
  doc: OpenApiDocument = contract,
): string[] {
  const { op } = operationById(operationId, doc);
  const declared = op.responses[String(status)];
  if (!declared) return [`${operationId} does not declare status ${status}`];
  const response = resolve<{ content?: Record<string, MediaType> }>(declared, doc);
  const media = response.content?.['application/json'];
  if (!media) return body === undefined || body === '' ? [] : [`${operationId} ${status} declares no body`];
  return violations(media.schema, body, doc).map((problem) => `${operationId} ${status} ${problem}`);
}

export interface MediaSite {
  /** Where the media type stands, e.g. `POST /payments/v1/refund 400 application/json`. */
  where: string;
  /** The response status, or null for a request body. */
  status: string | null;
  media: MediaType;
}

/** Every media type of a document: request bodies, responses, and webhook payloads. */
export function mediaSites(doc: OpenApiDocument = contract): MediaSite[] {
  const sites: MediaSite[] = [];
  for (const { method, path, op } of operations(doc)) {
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      sites.push({ where: `${method.toUpperCase()} ${path} request ${type}`, status: null, media });
    }
    for (const [status, declared] of Object.entries(op.responses)) {
      const response = resolve<{ content?: Record<string, MediaType> }>(declared, doc);
      for (const [type, media] of Object.entries(response.content ?? {})) {
        sites.push({ where: `${method.toUpperCase()} ${path} ${status} ${type}`, status, media });
      }
    }
  }
  for (const [name, item] of Object.entries(doc.webhooks ?? {})) {
    for (const [type, media] of Object.entries(item.post?.requestBody?.content ?? {})) {
      sites.push({ where: `webhook ${name} ${type}`, status: null, media });
    }
  }
  return sites;
}
