// What the mock's front answers instead of Prism, where Prism's answer breaks the contract: an
// invalid request, which Prism answers with an example (the 422 token action first, else a 400
// example whose message names another problem) and the real violations in `sl-violations`, gets
// the operation's 400 in the contract's `{error, message}` shape, its message naming the
// violations; a route or method the contract lacks, which Prism answers as
// application/problem+json, gets the contract's 404 or 405 shape. Pure: the front does the I/O.
import type { IncomingHttpHeaders } from 'node:http';
import { openEnumValues } from '../contract/open-enum.js';

/** A node of the bundled contract, read as JSON: only the fields followed here are named. */
type Node = { $ref?: string; [key: string]: unknown } | undefined;
type Contract = { paths: Record<string, Record<string, unknown>> };

/** An answer of the front: its status, headers and JSON body. */
export type Answer = { status: number; headers: Record<string, string>; body: string };

/** One violation Prism reports in `sl-violations`. */
type Violation = { code?: string; severity?: string; message?: string; location?: string[] };

/** A route of the contract: its pattern, and per method (upper case) its 400 codes. */
type Route = { pattern: RegExp; methods: Record<string, string[]> };

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The contract's routes, each with the `error` codes of its operations' 400s. */
export function contractRoutes(contract: Contract): Route[] {
  /** A $ref of the contract, followed to what it names. */
  const deref = (node: unknown): Node => {
    let at = node as Node;
    while (at?.$ref) {
      at = at.$ref
        .slice(2)
        .split('/')
        .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((o, key) => (o as Record<string, unknown> | undefined)?.[key], contract) as Node;
    }
    return at;
  };
  const field = (node: Node, key: string): Node => deref((node as Record<string, unknown> | undefined)?.[key]);
  /** The `error` codes an operation's 400 declares, in the document's order ([] when it has none). */
  const codes400 = (operation: Node): string[] => {
    const schema = field(
      field(field(field(field(operation, 'responses'), '400'), 'content'), 'application/json'),
      'schema',
    );
    const error = field(field(schema, 'properties'), 'error');
    return (error?.enum as string[] | undefined) ?? openEnumValues(error) ?? [];
  };
  return Object.entries(contract.paths).map(([template, item]) => ({
    pattern: new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ),
    methods: Object.fromEntries(
      Object.entries(item)
        .filter(([, op]) => (op as Node)?.responses)
        .map(([method, op]) => [method.toUpperCase(), codes400(op as Node)]),
    ),
  }));
}

/**
 * The code of an invalid request among the operation's own: a missing field's `Missing…` code when
 * every violation is a missing property, else its invalid-parameter code, else its first.
 */
function codeFor(codes: string[], violations: Violation[]): string | undefined {
  const missing =
    violations.length > 0 &&
    violations.every((v) => v.code === 'required') &&
    codes.find((code) => /^Missing/.test(code));
  return (
    missing ||
    codes.find((code) => /^(InvalidRequestParameter|ValidationError|InvalidRequest|InvalidParameter)$/.test(code)) ||
    codes[0]
  );
}

/** What the front answers instead of Prism's answer, or undefined to pass Prism's on. */
export function contractAnswer(
  routes: Route[],
  method: string,
  url: string,
  status: number,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Answer | undefined {
  const pathname = new URL(url, 'http://mock').pathname;
  const route = routes.find((r) => r.pattern.test(pathname));
  if (status === 404 && String(headers['content-type']).startsWith('application/problem+json') && !route) {
    return json(404, { error: 'NotFound', message: `No route ${pathname} in the contract.` });
  }
  if (route && !route.methods[method]) {
    const allowed = Object.keys(route.methods).join(', ');
    return json(
      405,
      { error: 'MethodNotAllowed', message: `${method} is not allowed on ${pathname}; allowed: ${allowed}.` },
      { allow: allowed },
    );
  }
  const codes = route?.methods[method] ?? [];
  // A body that is not JSON: Prism's own {error: {code: 'invalid_json'}}, not the contract's shape.
  if (status === 400 && codes.length > 0 && /"code":"invalid_json"/.test(body.toString('utf8'))) {
    return json(400, { error: codeFor(codes, []), message: 'The request body is not valid JSON.' });
  }
  const reported = String(headers['sl-violations'] ?? '[]');
  let violations: Violation[];
  try {
    violations = (JSON.parse(reported) as Violation[]).filter(
      (v) => v.severity === 'Error' && v.location?.[0] === 'request',
    );
  } catch {
    violations = [];
  }
  if (violations.length === 0 || codes.length === 0 || status < 400 || status === 401) return undefined;
  // Prism reports an if/then branch and its cause both; the cause says what to fix.
  const named = violations.filter((v) => v.code !== 'if');
  const message = [
    ...new Set(
      (named.length ? named : violations).map((v) => `${v.message} (${(v.location ?? []).slice(1).join('.')})`),
    ),
  ].join('; ');
  return json(400, { error: codeFor(codes, violations), message }, { 'sl-violations': reported });
}
