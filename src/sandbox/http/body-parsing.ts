// Request bodies. A malformed body is not an error of the parser but of the operation, so that each
// operation answers it with its own error code; an operation that reads no body (cancel) drains it.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { strictKeysProblem } from './json-keys.js';

/** Stands for a body that cannot be read as JSON; the route decides what that means. */
export class MalformedBody {
  constructor(
    readonly message: string,
    /** The top-level field at fault, when there is one, so that the operation can name its code. */
    readonly field?: string,
  ) {}
}

export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Deepest nesting of objects and arrays accepted in a body. Serializing, validating or storing a
 * deeper document would recurse past the stack; no field of the contract needs more than a few levels.
 */
export const MAX_NESTING_DEPTH = 64;

/** Where a value nests deeper than `limit` (a JSON path), or undefined. Iterative: any depth is safe. */
export function tooDeepAt(value: unknown, limit = MAX_NESTING_DEPTH): string[] | undefined {
  interface Frame {
    value: unknown;
    depth: number;
    key?: string;
    parent?: Frame;
  }
  const stack: Frame[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth >= limit) {
      const path: string[] = [];
      for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.unshift(at.key);
      return path;
    }
    for (const [key, child] of Object.entries(frame.value as object)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return undefined;
}

/**
 * Where a string (a value or a key) holds a lone surrogate (a JSON path), or undefined. SQLite keeps
 * text as UTF-8, where a lone surrogate becomes U+FFFD: two different idempotency keys, "k\ud800"
 * and "k\udc00", were stored as the same key.
 */
export function notUnicodeAt(value: unknown): string[] | undefined {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: at, path } = stack.pop()!;
    if (typeof at === 'string') {
      if (!at.isWellFormed()) return path;
    } else if (at !== null && typeof at === 'object') {
      for (const [key, child] of Object.entries(at)) {
        if (!key.isWellFormed()) return [...path, key];
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return undefined;
}

/** The charset parameter of a Content-Type, lower-case, unquoted; undefined when it names none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

export function registerJsonParser(app: FastifyInstance): void {
  // Fastify's own parser. A __proto__ or constructor.prototype key is dropped, as any unknown field
  // is ignored: the documents admit it (their objects are open), and dropped it can poison nothing.
  const parse = app.getDefaultJsonParser('remove', 'remove');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (request, bytes, done) => {
      // The sandbox reads bodies as sent: a compressed one would be read as garbage, or worse, as JSON.
      if (encoded(request.headers['content-encoding']))
        return done(
          null,
          new MalformedBody(
            `The sandbox does not decode Content-Encoding ${request.headers['content-encoding']}: send the body ` +
              `uncompressed.`,
          ),
        );
      // JSON is UTF-8 (RFC 8259): a body said to be in another charset would be read as what it is not.
      const charset = charsetOf(request.headers['content-type']);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
        return done(
          null,
          new MalformedBody(
            `The sandbox reads JSON as UTF-8: send charset=utf-8 or no charset, not charset=${charset}.`,
          ),
        );
      // Bytes that are not UTF-8 (0xFF, 0xFE, a cut sequence) would decode to U+FFFD: two different
      // idempotency keys, or a key and a real U+FFFD, would become one. JSON is UTF-8 (RFC 8259).
      if (!isUtf8(bytes as Buffer)) return done(null, new MalformedBody(invalidUtf8Message(bytes as Buffer)));
      const body = (bytes as Buffer).toString('utf8');
      // An empty body is no body: optional bodies (void) may be sent as nothing at all.
      if (body.trim() === '') return done(null, undefined);
      // Called with a callback, fastify's parser answers through it; its typed Promise result is never made.
      void parse(request, body, (error, value) => {
        if (error)
          return done(null, new MalformedBody(`The request body is not valid JSON: ${describeParseError(body)}.`));
        const deep = value !== null && typeof value === 'object' ? tooDeepAt(value) : undefined;
        if (deep) {
          const where = deep.slice(0, 3).join('.') + (deep.length > 3 ? '…' : '');
          return done(
            null,
            new MalformedBody(`The request body nests deeper than ${MAX_NESTING_DEPTH} levels (at ${where}).`, deep[0]),
          );
        }
        // The Administration helpers' bodies say who a key is for: read strictly (json-keys.ts).
        const strict = request.routeOptions.config.requiresAdmin === true ? strictKeysProblem(body) : undefined;
        if (strict) return done(null, new MalformedBody(`The request body is refused: ${strict}.`));
        // Only an escape (\ud800) can put a lone surrogate into a string: raw bytes are UTF-8.
        const broken = body.includes('\\u') ? notUnicodeAt(value) : undefined;
        if (broken) {
          return done(
            null,
            new MalformedBody(
              `The request body holds a string that is not valid Unicode at ` +
                `${broken.map((key) => key.toWellFormed()).join('.') || 'its top'}: a lone surrogate escape such ` +
                `as \\ud800, which storing would turn into another character.`,
              broken[0],
            ),
          );
        }
        done(null, value);
      });
    },
  );
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(
      null,
      (body as string).length === 0 ? undefined : new MalformedBody('Send the request body as application/json.'),
    );
  });
}

/** For routes that read no body: accept any content type and size, and discard it unread. */
export function registerBodyDrain(app: FastifyInstance): void {
  // Whatever the Content-Type says (even one fastify cannot parse), the body is drained unread.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.on('error', done);
    payload.on('end', () => done(null, undefined));
    payload.resume();
  });
}

/** The offset of the first byte that starts no valid UTF-8 sequence, or -1 when every byte does. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length; ) {
    const lead = bytes[at]!;
    // The length its lead byte announces; 0 for a byte no sequence starts with (0x80–0xC1, 0xF5–0xFF).
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    // isUtf8 also refuses what the lead byte alone cannot tell: overlong forms, surrogates, a cut sequence.
    if (length === 0 || !isUtf8(bytes.subarray(at, at + length))) return at;
    at += length;
  }
  return -1;
}

/** The answer to a body that is not UTF-8: where it breaks, and what to send instead. */
export function invalidUtf8Message(bytes: Buffer): string {
  const at = firstInvalidUtf8(bytes);
  return (
    `The request body is not valid UTF-8 (byte 0x${bytes[at]!.toString(16).padStart(2, '0')} at offset ` +
    `${at}): send JSON encoded as UTF-8; a character that is not ASCII may also be written as a \\u escape.`
  );
}

const encoded = (header: string | undefined) =>
  header !== undefined && header.trim().toLowerCase() !== 'identity' && header.trim() !== '';

function describeParseError(body: string): string {
  try {
    JSON.parse(body);
  } catch (syntax) {
    return (syntax as Error).message;
  }
  return 'it cannot be parsed';
}
