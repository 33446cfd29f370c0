// The OpenAPI links of a document: each one listed with its source response, checked against the
// document (the target operation exists, every parameter is one of its parameters, every runtime
// expression names a field the source response declares), and evaluated against a real response
// body, the way a stateful tester such as Schemathesis follows them.
import {
  listOperations,
  resolveRef,
  type LocatedOperation,
  type OpenApiDocument,
} from '../../src/sandbox/http/document.js';

export interface LinkObject {
  operationId?: string;
  operationRef?: string;
  description?: string;
  parameters?: Record<string, unknown>;
  requestBody?: unknown;
  /** Body fields the link sets, each a runtime expression: merged into the rest of the body. */
  'x-request-body'?: unknown;
  server?: unknown;
}

export interface DocumentLink {
  /** The operation whose response carries the link. */
  source: LocatedOperation;
  status: string;
  name: string;
  link: LinkObject;
  /** The source response's application/json schema, if any. */
  responseSchema: unknown;
}

type Schema = Record<string, any>;

/** Every link of every response of the document's paths, references resolved. */
export function documentLinks(doc: OpenApiDocument): DocumentLink[] {
  const found: DocumentLink[] = [];
  for (const source of listOperations(doc)) {
    for (const [status, raw] of Object.entries(source.operation.responses)) {
      const response = resolveRef<{ links?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }>(
        doc,
        raw,
      );
      for (const [name, link] of Object.entries(response.links ?? {})) {
        found.push({
          source,
          status,
          name,
          link: resolveRef<LinkObject>(doc, link as LinkObject),
          responseSchema: response.content?.['application/json']?.schema,
        });
      }
    }
  }
  return found;
}

const BODY_EXPRESSION = /^\$response\.body#(\/.*)?$/;

/** The JSON pointer of a `$response.body#/…` expression, as segments; undefined for any other expression. */
export function bodyPointer(expression: unknown): string[] | undefined {
  if (typeof expression !== 'string') return undefined;
  const match = BODY_EXPRESSION.exec(expression);
  if (!match) return undefined;
  return (match[1] ?? '')
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The branches a value of this schema may take: itself, and its allOf, anyOf and oneOf members, references resolved. */
function branches(doc: OpenApiDocument, schema: Schema): Schema[] {
  const own = resolveRef<Schema>(doc, schema);
  const members = [...(own.allOf ?? []), ...(own.anyOf ?? []), ...(own.oneOf ?? [])] as Schema[];
  return [own, ...members.flatMap((member) => branches(doc, member))];
}

/**
 * The schemas a JSON pointer reaches through declared properties (and array items, for a numeric
 * segment). Empty when some segment is not declared: a field only `additionalProperties` allows
 * does not count.
 */
export function declaredAt(doc: OpenApiDocument, schema: unknown, pointer: string[]): Schema[] {
  let reached: Schema[] = schema ? [schema as Schema] : [];
  for (const segment of pointer) {
    reached = reached
      .flatMap((s) => branches(doc, s))
      .flatMap((s) => {
        if (/^(0|[1-9][0-9]*)$/.test(segment) && s.items) return [s.items as Schema];
        const property = (s.properties as Record<string, Schema> | undefined)?.[segment];
        return property ? [property] : [];
      });
  }
  return reached;
}

/** The JSON types a schema allows (through its branches), or undefined when it does not say. */
function typesOf(doc: OpenApiDocument, schema: Schema): Set<string> | undefined {
  const types = branches(doc, schema).flatMap((s) => (s.type === undefined ? [] : ([s.type].flat() as string[])));
  return types.length > 0 ? new Set(types) : undefined;
}

/** Whether a value of `from` can be a value of `to`: some type in common, when both say. */
function compatible(doc: OpenApiDocument, from: Schema[], to: Schema): boolean {
  const target = typesOf(doc, to);
  if (!target) return true;
  return from.some((schema) => {
    const source = typesOf(doc, schema);
    return !source || [...source].some((t) => target.has(t) || (t === 'integer' && target.has('number')));
  });
}

/** What is wrong with the document's links; [] when every one is right. */
export function linkProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const operations = listOperations(doc);
  for (const { source, status, name, link, responseSchema } of documentLinks(doc)) {
    const where = `${source.operation.operationId} ${status} link ${name}`;
    const say = (problem: string) => problems.push(`${where}: ${problem}`);
    if (!link.description?.trim()) say('has no description');
    if (link.operationRef !== undefined || link.server !== undefined)
      say('uses operationRef or server; the contract links by operationId only');
    const target = operations.find((o) => o.operation.operationId === link.operationId);
    if (!target) {
      say(`operationId ${link.operationId} is no operation of the document`);
      continue;
    }
    /** The schemas an expression reaches in the source response, or a problem. */
    const reach = (expression: unknown, what: string): Schema[] | undefined => {
      const pointer = bodyPointer(expression);
      if (!pointer) {
        say(`${what}: ${JSON.stringify(expression)} is not a $response.body#/… expression`);
        return undefined;
      }
      const reached = declaredAt(doc, responseSchema, pointer);
      if (reached.length === 0) say(`${what}: ${String(expression)} names no field the ${status} response declares`);
      return reached.length > 0 ? reached : undefined;
    };
    const parameters = Object.entries(link.parameters ?? {});
    for (const [key, expression] of parameters) {
      const [location, parameterName] = key.includes('.') ? (key.split('.', 2) as [string, string]) : [undefined, key];
      const parameter = target.parameters.find(
        (p) => p.name === parameterName && (location === undefined || p.in === location),
      );
      if (!parameter) {
        say(`parameter ${key} is no parameter of ${link.operationId}`);
        continue;
      }
      const reached = reach(expression, `parameter ${key}`);
      if (reached && !compatible(doc, reached, parameter.schema))
        say(`parameter ${key}: ${String(expression)} has no type in common with the parameter`);
    }
    for (const required of target.parameters.filter((p) => p.in === 'path')) {
      if (!parameters.some(([key]) => key === required.name || key === `path.${required.name}`)) {
        say(`sets no value for ${link.operationId}'s path parameter ${required.name}`);
      }
    }
    // A link's own requestBody stays unused: swagger-parser (openapi-generator, swagger-codegen)
    // refuses the document when it is not a string, and OpenAPI evaluates no expression inside a
    // literal value. Body fields go in x-request-body, which a stateful tester's run maps back.
    if (link.requestBody !== undefined)
      say('has a requestBody: openapi-generator refuses a non-string one; set body fields with x-request-body');
    if (link['x-request-body'] !== undefined) {
      const bodySchema = target.operation.requestBody?.content['application/json']?.schema;
      if (!bodySchema) {
        say(`has an x-request-body, but ${link.operationId} takes no JSON body`);
      } else if (
        typeof link['x-request-body'] !== 'object' ||
        link['x-request-body'] === null ||
        Array.isArray(link['x-request-body'])
      ) {
        say('x-request-body must be an object whose values are runtime expressions (merged into the body)');
      } else {
        for (const [field, expression] of Object.entries(link['x-request-body'])) {
          const declared = declaredAt(doc, bodySchema, [field]);
          if (declared.length === 0) {
            say(`x-request-body field ${field} is no field of ${link.operationId}'s request body`);
            continue;
          }
          const reached = reach(expression, `x-request-body field ${field}`);
          if (reached && !declared.some((d) => compatible(doc, reached, d)))
            say(`x-request-body field ${field}: ${String(expression)} has no type in common with the field`);
        }
      }
    }
  }
  return problems;
}

function atPointer(value: unknown, pointer: string[]): unknown {
  return pointer.reduce<unknown>(
    (at, segment) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[segment] : undefined),
    value,
  );
}

/** The values a link gives its target, from a response body: its parameters by name, and its body fields. */
export function followLink(
  link: LinkObject,
  responseBody: unknown,
): { parameters: Record<string, unknown>; body: Record<string, unknown> } {
  const evaluate = (expression: unknown) => {
    const pointer = bodyPointer(expression);
    if (!pointer) throw new Error(`Unsupported runtime expression ${JSON.stringify(expression)}`);
    return atPointer(responseBody, pointer);
  };
  const parameters = Object.fromEntries(
    Object.entries(link.parameters ?? {}).map(([key, e]) => [key.replace(/^[a-z]+\./, ''), evaluate(e)]),
  );
  const body = Object.fromEntries(
    Object.entries((link['x-request-body'] ?? {}) as Record<string, unknown>).map(([field, e]) => [field, evaluate(e)]),
  );
  return { parameters, body };
}
