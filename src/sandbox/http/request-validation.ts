// Request validation compiled from the bundled document: path and query parameters (with the
// document's serialization: comma-separated lists, integers, booleans) and the JSON body.
import type { ErrorObject } from 'ajv';
import { notFound, Refusal } from '../domain/errors.js';
import { codeFor, describe, topField, type ValidationCodes } from './error-codes.js';
import { resolveRef, type LocatedOperation, type SchemaObject, type SchemaValidators } from './document.js';

/**
 * A request the document refuses, with the operation's code for it. The codes come from the
 * operation's table in error-codes.ts, itself checked against the document's enums by a test.
 */
export const refusal = (code: string, message: string) => new Refusal('invalid', code, message);

/** A body the schema refuses: the refusal to answer, and where its violations lie. */
export interface BodyViolation {
  refusal: Refusal;
  /** The top-level fields the violations are about; '' for the body as a whole (its type, a field it forbids). */
  fields: string[];
}

export interface ValidatedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** The body broke its schema: returned, not thrown, so that the caller decides whether it refuses. */
  bodyViolation?: BodyViolation;
}

const isType = (schema: SchemaObject, type: string) =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

const INT64_MAX = 9223372036854775807n;

/** Turns one query string value into the type its schema declares; undefined when it cannot. */
function coerce(raw: string, schema: SchemaObject): unknown {
  if (isType(schema, 'integer') || isType(schema, 'number')) {
    if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) return raw;
    const value = Number(raw);
    if (!isType(schema, 'integer') || Number.isSafeInteger(value)) return value;
    // Beyond 2^53 a number no longer reads back as written. An int64 (a page number) still is one:
    // it is only ever compared, and past 2^53 it is past every page. Any other integer keeps its
    // text, so validation refuses it.
    return schema.format === 'int64' &&
      /^-?\d+$/.test(raw.trim()) &&
      BigInt(raw.trim()) <= INT64_MAX &&
      BigInt(raw.trim()) >= -INT64_MAX - 1n
      ? value
      : raw;
  }
  if (isType(schema, 'boolean')) return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

export function validateRequest(
  located: LocatedOperation,
  validators: SchemaValidators,
  codes: ValidationCodes,
  input: {
    params: Record<string, string>;
    query: Record<string, string | string[]>;
    body: unknown;
    hasBody: boolean;
  },
): ValidatedRequest {
  const fail = (errors: ErrorObject[], where: string) => {
    throw refusal(codeFor(errors, codes), describe(errors, where));
  };
  const result: ValidatedRequest = { path: {}, query: {}, body: input.body };
  const { operationId } = located.operation;

  for (const parameter of located.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const raw = parameter.in === 'path' ? input.params[parameter.name] : input.query[parameter.name];
    if (raw === undefined || raw === '') {
      // An empty path segment (`/payment_tokens/`, or `…/x/..` once normalized) names no resource.
      if (parameter.in === 'path') throw notFound(`No resource: ${parameter.name} is empty.`);
      if (parameter.required) {
        throw refusal(codes.missing, `${parameter.name} is required.`);
      }
      // An empty query value (`?updated_after=`) is absent only where the schema admits an empty
      // string (a name to search for); a date, a number or an enum value it cannot be, so it is refused.
      // An empty list (`?status=`, as a comma-separated list serializes []) filters nothing.
      if (raw === '') {
        const validate = validators.inline(`${operationId}:${parameter.in}:${parameter.name}`, parameter.schema);
        const schema = resolveRef<SchemaObject>(validators.document, parameter.schema);
        const empty = isType(schema, 'array') ? [] : coerce('', schema);
        if (!validate(empty)) fail(validate.errors ?? [], parameter.name);
      }
      continue;
    }
    const schema = resolveRef<SchemaObject>(validators.document, parameter.schema);
    const text = Array.isArray(raw) ? raw.join(',') : raw;
    const value = isType(schema, 'array')
      ? text.split(',').map((part) => coerce(part, resolveRef(validators.document, schema.items ?? {})))
      : coerce(text, schema);
    const validate = validators.inline(`${operationId}:${parameter.in}:${parameter.name}`, parameter.schema);
    // A path id that breaks its schema (a dispute_id that is no UUID) names no resource: not found,
    // unless the operation's 400 has a code for it (the eligibility's ValidationError).
    if (!validate(value) && parameter.in === 'path') {
      if (codes.path !== undefined) throw refusal(codes.path, describe(validate.errors ?? [], parameter.name));
      throw notFound(`No resource: ${describe(validate.errors ?? [], parameter.name)}`);
    }
    if (!validate(value)) fail(validate.errors ?? [], parameter.name);
    result[parameter.in][parameter.name] = value;
  }

  const media = located.operation.requestBody?.content['application/json'];
  if (media?.schema) {
    if (!input.hasBody || input.body === undefined) {
      if (located.operation.requestBody?.required) throw refusal(codes.missing, 'A JSON request body is required.');
      result.body = undefined;
    } else {
      const validate = media.schema.$ref
        ? validators.at(media.schema.$ref)
        : validators.inline(`${operationId}:body`, media.schema);
      if (!validate(input.body)) {
        const errors = validate.errors ?? [];
        // `if` errors only accompany the violation of their `then`, which carries the field.
        const fields = [...new Set(errors.filter((e) => e.keyword !== 'if').map(topField))];
        result.bodyViolation = { refusal: refusal(codeFor(errors, codes), describe(errors, '')), fields };
      }
    }
  }
  return result;
}
