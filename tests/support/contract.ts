// The bundled contract, loaded once, with the sandbox's ajv (JSON Schema 2020-12) validators.
// Shared by every test that checks a payload against the document.
import { CONTRACT_FILE, loadDocument as loadOpenApi, repoRoot, resolveRef, SchemaValidators } from '../../src/sandbox/http/document.js';

export { repoRoot };

export interface MediaType {
  schema?: { $ref?: string };
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
export interface Operation {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Array<{ $ref?: string; name?: string; in?: string; schema?: Record<string, unknown>; required?: boolean; style?: string; explode?: boolean }>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaType> }>;
  security?: unknown[];
  [extension: `x-${string}`]: unknown;
}
export interface OpenApiDocument {
  openapi: string;
  servers: Array<{ url: string; description: string }>;
  paths: Record<string, Record<string, Operation | unknown>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, any>>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export function loadDocument(file = CONTRACT_FILE): OpenApiDocument {
  return loadOpenApi(file) as unknown as OpenApiDocument;
}

export const contract = loadDocument();

/** Every operation of the document's paths, with its method and path. */
export function operations(doc: OpenApiDocument = contract): Array<{ method: string; path: string; op: Operation }> {
  const found: Array<{ method: string; path: string; op: Operation }> = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Operation | undefined;
      if (op) found.push({ method, path: p, op });
    }
  }
  return found;
}

export function operationById(operationId: string, doc: OpenApiDocument = contract) {
  const found = operations(doc).find((o) => o.op.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId} in the contract`);
  return found;
}

/** Follows a local `#/components/...` reference. */
export function resolve<T>(node: T | { $ref?: string }, doc: OpenApiDocument = contract): T {
  return resolveRef<T>(doc as never, node);
}

const validators = new SchemaValidators(contract as never);

/** A validator for the schema at a JSON pointer of the document, e.g. `#/components/schemas/Dispute`. */
export const validatorAt = (pointer: string) => validators.at(pointer);

/** Validates a body against a media type's schema; returns ajv's errors, or [] when valid. */
export function violations(schema: { $ref?: string } | undefined, value: unknown): string[] {
  if (!schema?.$ref) throw new Error('Expected a named schema ($ref)');
  const validate = validatorAt(schema.$ref);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/**
 * Checks a response against the document: its status must be declared by the operation, and its
 * body must validate against that status's schema. Returns the problems found.
 */
export function responseViolations(operationId: string, status: number, body: unknown): string[] {
  const { op } = operationById(operationId);
  const declared = op.responses[String(status)];
  if (!declared) return [`${operationId} does not declare status ${status}`];
  const response = resolve<{ content?: Record<string, MediaType> }>(declared);
  const media = response.content?.['application/json'];
  if (!media) return body === undefined || body === '' ? [] : [`${operationId} ${status} declares no body`];
  return violations(media.schema, body);
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
