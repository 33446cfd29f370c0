// Serves the bundled contract's examples with Prism (stateless mock).
// --host/-h and --port/-p (or HOST and PORT) override the default 127.0.0.1:4011 (the sandbox has
// 4010). Other arguments go to Prism (e.g. -v error).
//
// Prism listens on a private loopback port behind a small front on the public one. The front
// passes every answer through, but for two that break the contract: an invalid request, which
// Prism answers with an example (the 422 token action first, else a 400 example whose message
// names another problem) and the real violations in `sl-violations`, gets the operation's 400
// in the contract's `{error, message}` shape, its message naming the violations; a route or method
// the contract lacks, which Prism answers as application/problem+json, gets the contract's 404 or
// 405 shape.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { root } from './lib/tools.mjs';
import { openEnumValues } from './lib/open-enum.mjs';

const { values, tokens } = parseArgs({
  options: { host: { type: 'string', short: 'h' }, port: { type: 'string', short: 'p' } },
  strict: false,
  tokens: true,
});
// Arguments that are not --host or --port, in order, for Prism.
const rest = tokens
  .filter((t) => !(t.kind === 'option' && (t.name === 'host' || t.name === 'port')))
  .flatMap((t) => {
    if (t.kind === 'positional') return [t.value];
    if (t.kind !== 'option') return [];
    if (t.value === undefined) return [t.rawName];
    return t.inlineValue ? [`${t.rawName}=${t.value}`] : [t.rawName, t.value];
  });
const host = String(values.host ?? process.env.HOST ?? '127.0.0.1');
const port = String(values.port ?? process.env.PORT ?? '4011');
// Prism's own bin, wherever npm put it: in this repository, or in the project that installed the package.
const require = createRequire(import.meta.url);
let prismPackage;
try {
  prismPackage = require.resolve('@stoplight/prism-cli/package.json');
} catch {
  console.error('error: the mock needs Prism, an optional peer of this package: npm install --save-dev @stoplight/prism-cli@5');
  process.exit(2);
}
const prism = path.join(path.dirname(prismPackage), require(prismPackage).bin.prism);
const document = path.join(root, 'generated', 'openapi.yaml');
const contract = JSON.parse(readFileSync(path.join(root, 'generated', 'openapi.json'), 'utf8'));

/** A $ref of the contract, followed to what it names. */
const deref = (node) => {
  let at = node;
  while (at?.$ref) at = at.$ref.slice(2).split('/').map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((o, key) => o?.[key], contract);
  return at;
};
/** The `error` codes an operation's 400 declares, in the document's order ([] when it has none). */
const codes400 = (operation) => {
  const schema = deref(deref(operation.responses?.['400'])?.content?.['application/json']?.schema);
  const error = deref(schema?.properties?.error);
  return error?.enum ?? openEnumValues(error) ?? [];
};
/** Each route of the contract: its pattern, and per method its 400 codes. */
const routes = Object.entries(contract.paths).map(([template, item]) => ({
  pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`),
  methods: Object.fromEntries(Object.entries(item).filter(([, op]) => op?.responses).map(([method, op]) => [method.toUpperCase(), codes400(op)])),
}));
/**
 * The code of an invalid request among the operation's own: a missing field's `Missing…` code when
 * every violation is a missing property, else its invalid-parameter code, else its first.
 */
function codeFor(codes, violations) {
  const missing = violations.length > 0 && violations.every((v) => v.code === 'required') && codes.find((code) => /^Missing/.test(code));
  return missing || codes.find((code) => /^(InvalidRequestParameter|ValidationError|InvalidRequest|InvalidParameter)$/.test(code)) || codes[0];
}
const json = (status, body, headers = {}) => ({ status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** What the front answers instead of Prism's answer, or undefined to pass Prism's on. */
function contractAnswer(method, url, status, headers, body) {
  const pathname = new URL(url, 'http://mock').pathname;
  const route = routes.find((r) => r.pattern.test(pathname));
  if (status === 404 && String(headers['content-type']).startsWith('application/problem+json') && !route) {
    return json(404, { error: 'NotFound', message: `No route ${pathname} in the contract.` });
  }
  if (route && !route.methods[method]) {
    return json(405, { error: 'MethodNotAllowed', message: `${method} is not allowed on ${pathname}; allowed: ${Object.keys(route.methods).join(', ')}.` }, { allow: Object.keys(route.methods).join(', ') });
  }
  const codes = route?.methods[method] ?? [];
  // A body that is not JSON: Prism's own {error: {code: 'invalid_json'}}, not the contract's shape.
  if (status === 400 && codes.length > 0 && /"code":"invalid_json"/.test(body.toString('utf8'))) {
    return json(400, { error: codeFor(codes, []), message: 'The request body is not valid JSON.' });
  }
  let violations;
  try { violations = JSON.parse(headers['sl-violations'] ?? '[]').filter((v) => v.severity === 'Error' && v.location?.[0] === 'request'); } catch { violations = []; }
  if (violations.length === 0 || codes.length === 0 || status < 400 || status === 401) return undefined;
  // Prism reports an if/then branch and its cause both; the cause says what to fix.
  const named = violations.filter((v) => v.code !== 'if');
  const message = [...new Set((named.length ? named : violations).map((v) => `${v.message} (${v.location.slice(1).join('.')})`))].join('; ');
  return json(400, { error: codeFor(codes, violations), message }, { 'sl-violations': headers['sl-violations'] });
}
// Prism logs every route it mocks, then every request; warnings and errors are what matter here.
const verbosity = rest.some((arg) => /^(-v|--verboseLevel)(=|$)/.test(arg)) ? [] : ['-v', 'warn'];

console.log(`Prism mock of ${path.relative(root, document)}, starting on http://${host}:${port}`);
console.log('Send x-service-api-key on every call; pick an example with "Prefer: code=400, example=<name>".');
// Prism's private port: a free loopback port, chosen by the system.
const prismPort = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => { const { port: free } = probe.address(); probe.close(() => resolve(free)); });
});
const child = spawn(process.execPath, [prism, 'mock', '-h', '127.0.0.1', '-p', String(prismPort), ...verbosity, ...rest, document], {
  stdio: 'inherit',
});
const front = createServer((incoming, outgoing) => {
  const chunks = [];
  incoming.on('data', (chunk) => chunks.push(chunk));
  incoming.on('end', () => {
    const sent = forward({ host: '127.0.0.1', port: prismPort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      const parts = [];
      answer.on('data', (chunk) => parts.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(parts);
        const instead = contractAnswer(incoming.method, incoming.url, answer.statusCode, answer.headers, body);
        if (!instead) return outgoing.writeHead(answer.statusCode, answer.headers).end(body);
        const headers = { ...answer.headers, ...instead.headers, 'content-length': Buffer.byteLength(instead.body) };
        delete headers['transfer-encoding'];
        outgoing.writeHead(instead.status, headers).end(instead.body);
      });
    });
    sent.on('error', (error) => outgoing.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'ServerError', message: `The mock's Prism did not answer: ${error.message}` })));
    sent.end(Buffer.concat(chunks));
  });
});
// Prism says nothing at -v warn once it listens: the front listens once Prism's port accepts (a
// TCP connect, so that the probe is no request for Prism to log), and says so.
const accepts = () => new Promise((resolve) => {
  const socket = connect(prismPort, '127.0.0.1', () => (socket.end(), resolve(true)));
  socket.on('error', () => resolve(false));
});
void (async () => {
  for (let tries = 0; tries < 600 && child.exitCode === null; tries++) {
    if (await accepts()) return front.listen(Number(port), host, () => console.log(`Ready: http://${host}:${port}`));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
front.on('error', (error) => { console.error(`error: the mock cannot listen on ${host}:${port}: ${error.message}`); child.kill('SIGTERM'); });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
