// The bundled OpenAPI documents: their object types (the one copy, shared with the tests), the walk
// over their operations, path templates, and ajv (JSON Schema 2020-12) validators compiled from their
// schemas. The sandbox validates requests with these, and the tests validate responses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its callable is the `default` of the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CONTRACT_FILE = path.join(repoRoot, 'generated', 'openapi.json');
/** The same contract in OpenAPI 3.0.3, for tools that read only 3.0: served, never validated against. */
export const CONTRACT_30_FILE = path.join(repoRoot, 'generated', 'openapi-3.0.json');
export const SANDBOX_FILE = path.join(repoRoot, 'generated', 'sandbox.json');

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON Schema object of a bundled document, read where the code knows its keywords. */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema leaves a keyword's value open; each reader narrows it
export type SchemaObject = Record<string, any>;

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: SchemaObject;
  $ref?: string;
}
export interface MediaTypeObject {
  schema?: { $ref?: string } & Record<string, unknown>;
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
export interface OperationObject {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaTypeObject> }>;
  [extension: `x-${string}`]: unknown;
  [key: string]: unknown;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string; description: string }>;
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, OperationObject>>;
  components: Record<string, SchemaObject>;
}

export interface LocatedOperation {
  method: HttpMethod;
  path: string;
  operation: OperationObject;
  /** Path-level and operation-level parameters, references resolved. */
  parameters: ParameterObject[];
}

export function loadDocument(file: string): OpenApiDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}

/** Follows local `#/...` references. */
export function resolveRef<T>(doc: OpenApiDocument, node: T | { $ref?: string }): T {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  if (!ref) return node as T;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    // biome-ignore lint/suspicious/noExplicitAny: a JSON pointer may lead anywhere in the document
    .reduce<any>((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  if (target === undefined) throw new Error(`Unresolved reference ${ref}`);
  return resolveRef<T>(doc, target);
}

/** `/a/{b}/c` → `/a/:b/c` */
export const fastifyPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

/**
 * Whether a path template matches a path: the same segments, where a `{param}` of the template
 * matches any non-empty segment. The path may itself be a template: then the answer is whether
 * every URL of it also matches `template`.
 */
export function templateMatches(template: string, path: string): boolean {
  const [t, p] = [template.split('/'), path.split('/')];
  return t.length === p.length && t.every((segment, i) => segment === p[i] || (isParam(segment) && p[i] !== ''));
}

export function listOperations(doc: OpenApiDocument): LocatedOperation[] {
  const found: LocatedOperation[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters as ParameterObject[] | undefined) ?? []).map((x) =>
      resolveRef<ParameterObject>(doc, x),
    );
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      const own = (operation.parameters ?? []).map((x) => resolveRef<ParameterObject>(doc, x));
      found.push({
        method,
        path: p,
        operation,
        parameters: [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own],
      });
    }
  }
  return found;
}

/** Compiles and caches validators for schemas of one document. */
export class SchemaValidators {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly id: string;

  constructor(
    readonly document: OpenApiDocument,
    id = `https://sandbox.service.example/${encodeURIComponent(document.info.title)}.json`,
  ) {
    this.id = id;
    // validateSchema off: checking the document against the JSON Schema meta-schema compiled that
    // meta-schema at every start, a fifth of the start-up; npm run lint checks the document instead.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false });
    addFormats(this.ajv);
    // The whole document is registered so that `#/components/schemas/...` references resolve.
    this.ajv.addSchema(document as object, id);
  }

  /** The validator of the schema at a JSON pointer of the document, e.g. `#/components/schemas/Dispute`. */
  at(pointer: string): ValidateFunction {
    const cached = this.cache.get(pointer);
    if (cached) return cached;
    const validate = this.ajv.compile({ $ref: `${this.id}${pointer}` });
    this.cache.set(pointer, validate);
    return validate;
  }

  /** The validator of an inline schema whose references point into the document. */
  inline(key: string, schema: Record<string, unknown>): ValidateFunction {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const rebased = JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${this.id}#/`)) as Record<
      string,
      unknown
    >;
    const validate = this.ajv.compile(rebased);
    this.cache.set(key, validate);
    return validate;
  }
}
