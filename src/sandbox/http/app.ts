// The sandbox server: the contract's operations and the helpers, on fastify, with contract-shaped
// errors for everything that goes wrong (404, 405, malformed bodies, faults, crashes).
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { checkoutPage, tokenActionPage } from '../checkout/page.js';
import { checkRules, ignoredByReplay, type IdempotencyRules } from '../domain/idempotency.js';
import type { Store } from '../store/index.js';
import { DEFAULT_API_KEYS, registerAuth } from './auth.js';
import { BODY_LIMIT_BYTES, registerJsonParser } from './body-parsing.js';
import { CONTRACT_FILE, listOperations, loadDocument, resolveRef, SANDBOX_FILE, SchemaValidators, type OpenApiDocument } from './document.js';
import { HELPER_CODES, UNDOCUMENTED_400, VALIDATION_CODES } from './error-codes.js';
import { helperHandlers } from './handlers/helpers.js';
import { paymentSessionHandlers } from './handlers/payment-sessions.js';
import { answerClientError, registerTransportErrors } from './transport-errors.js';
import { registerMethodNotAllowed } from './method-not-allowed.js';
import { notImplemented, registerOperations, sendError, type RouteConfig } from './operations.js';
import { OperationError } from '../domain/errors.js';

export interface SandboxOptions {
  store: Store;
  apiKeys?: ReadonlyMap<string, string>;
  logger?: FastifyServerOptions['logger'];
  /** Scheme and host for redirect URLs when a request's Host header is not a plain host. */
  publicUrl?: string;
}

/** Longest path segment accepted; longer ids simply are not found. */
const MAX_PARAM_LENGTH = 1000;

/** A URL as echoed in an error message: never more than a line. */
const shown = (url: string) => (url.length > 200 ? `${url.slice(0, 200)}…` : url);

function idempotencyRules(contract: OpenApiDocument): IdempotencyRules {
  const create = listOperations(contract).find((o) => o.operation.operationId === 'createPaymentSession');
  const rules = create?.operation['x-idempotency'] as IdempotencyRules | undefined;
  if (!rules) throw new Error('The contract has no x-idempotency on createPaymentSession');
  checkRules(rules);
  return rules;
}

/** Whether an operation's 400 enum includes ServerError (else an injected fault answers 500). */
function serverErrorIn400(contract: OpenApiDocument) {
  const has = new Map<string, boolean>();
  for (const { operation } of listOperations(contract)) {
    const response = operation.responses['400'] ? resolveRef<{ content?: Record<string, { schema?: { $ref?: string } }> }>(contract, operation.responses['400']) : undefined;
    const ref = response?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? resolveRef<{ properties?: { error?: { enum?: string[] } } }>(contract, { $ref: ref }) : undefined;
    has.set(operation.operationId, schema?.properties?.error?.enum?.includes('ServerError') ?? false);
  }
  return (operationId: string) => has.get(operationId) ?? false;
}

export function buildSandbox(options: SandboxOptions): FastifyInstance {
  const contract = loadDocument(CONTRACT_FILE);
  const helpers = loadDocument(SANDBOX_FILE);
  const contractValidators = new SchemaValidators(contract);
  const helperValidators = new SchemaValidators(helpers);
  const { store } = options;

  const publicUrl = options.publicUrl ?? 'http://127.0.0.1:4010';
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    // Node would answer a missing Host with an empty 400; registerTransportErrors answers it instead.
    http: { requireHostHeader: false },
    // A URL the router cannot decode names no resource.
    frameworkErrors: (error, request, reply) => {
      void (reply as FastifyReply).code(404).send({ error: 'NotFound', message: `No route ${request.method} ${shown(request.url)}: ${error.message}.` });
    },
  });
  registerTransportErrors(app);
  registerJsonParser(app);
  registerAuth(app, options.apiKeys ?? DEFAULT_API_KEYS);

  const rules = idempotencyRules(contract);
  const replayIgnored = ignoredByReplay(rules);
  registerOperations(app, {
    validators: contractValidators,
    handlers: paymentSessionHandlers(rules),
    replayIgnores: (id) => (id === 'createPaymentSession' ? replayIgnored : undefined),
    codesFor: (id) => VALIDATION_CODES[id] ?? UNDOCUMENTED_400,
    store,
    faults: true,
    serverErrorIn400: serverErrorIn400(contract),
    publicUrl,
  });
  const contractIds = new Set(listOperations(contract).map((o) => o.operation.operationId));
  registerOperations(app, { validators: helperValidators, handlers: helperHandlers(contractIds), codesFor: () => HELPER_CODES, store, faults: false, publicUrl });

  const documents = {
    '/openapi.json': { file: CONTRACT_FILE, type: 'application/json' },
    '/openapi.yaml': { file: CONTRACT_FILE.replace(/\.json$/, '.yaml'), type: 'application/yaml' },
    '/sandbox/openapi.json': { file: SANDBOX_FILE, type: 'application/json' },
    '/sandbox/openapi.yaml': { file: SANDBOX_FILE.replace(/\.json$/, '.yaml'), type: 'application/yaml' },
  };
  for (const [url, { file, type }] of Object.entries(documents)) {
    const text = readFileSync(file, 'utf8');
    app.get(url, async (_request, reply) => reply.type(type).send(text));
  }
  app.get('/health', async () => ({ status: 'ok' }));
  app.get<{ Params: { token: string } }>('/checkout/token/:token', async (request, reply) => {
    const { status, html } = tokenActionPage(store.tokens.getForCustomer(request.params.token), request.params.token);
    return reply.code(status).type('text/html; charset=utf-8').send(html);
  });
  app.get<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
    const { status, html } = checkoutPage(store.sessions.getForCustomer(request.params.id), request.params.id);
    return reply.code(status).type('text/html; charset=utf-8').send(html);
  });

  registerMethodNotAllowed(app, [contract, helpers]);
  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ error: 'NotFound', message: `No route ${request.method} ${shown(request.url.split('?')[0]!)}.` }),
  );

  app.setErrorHandler(async (error: Error & { code?: string; statusCode?: number }, request, reply) => {
    const config = request.routeOptions.config as (Partial<RouteConfig> & { allowedMethods?: string[] }) | undefined;
    if (error instanceof OperationError) return sendError(reply, error);
    // Whatever the framework refused (content type, size), an unimplemented operation is just that,
    // and a wrong method is a wrong method.
    if (config?.implemented === false && config.operationId) return sendError(reply, notImplemented(config.operationId));
    if (config?.allowedMethods) {
      const allowed = config.allowedMethods;
      return reply.code(405).header('allow', allowed.join(', ')).send({ error: 'MethodNotAllowed', message: `${request.method} is not allowed here; use ${allowed.join(' or ')}.` });
    }
    const codes = config?.codes ?? UNDOCUMENTED_400;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(400).send({ error: codes.invalid, message: `The request body exceeds the sandbox's ${BODY_LIMIT_BYTES / 1024} KiB limit.` });
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(400).send({ error: codes.invalid, message: `The request is malformed: ${error.message}.` });
    }
    request.log.error({ err: error }, 'unexpected sandbox error');
    return reply.code(500).send({ error: 'ServerError', message: 'An internal error occurred in the sandbox. Retry with the same idempotency key.' });
  });
  return app;
}
