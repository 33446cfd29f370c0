// The sandbox server, composed: transport and auth hooks, the body parser, the contract's
// operations and the helpers (each a route of its own, 405s included), the documents, the hosted
// pages, and the one error path (http/errors.ts) that answers everything that goes wrong.
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { INDEX_PAGE_POLICY, indexPage } from '../checkout/index-page.js';
import { WebhookListeners } from '../delivery/listeners.js';
import { randomIds, type IdSource } from '../ids.js';
import type { SandboxStore } from '../store/store.js';
import { DEFAULT_API_KEYS, registerAuth } from './auth.js';
import { BODY_LIMIT_BYTES, registerJsonParser } from './body-parsing.js';
import { codes400, idempotencyRules, requestHeaders } from './document-facts.js';
import {
  CONTRACT_30_FILE,
  CONTRACT_FILE,
  listOperations,
  loadDocument,
  SANDBOX_FILE,
  SchemaValidators,
} from './document.js';
import { codesOf, HELPER_CODES } from './error-codes.js';
import { answerFrameworkError, registerErrorPath } from './errors.js';
import { catalogHandlers } from './handlers/catalog.js';
import { createReplay } from '../app/create-replay.js';
import { disputeHandlers } from './handlers/disputes.js';
import { paymentSessionHandlers } from './handlers/payment-sessions.js';
import { paymentTokenHandlers } from './handlers/payment-tokens.js';
import { answerReportWithoutClaim } from './handlers/helper-api/listener-attempt-body.js';
import { sandboxHelperHandlers } from './handlers/helper-api/index.js';
import { registerEvolutionDrill } from './evolution-drill.js';
import { registerMethodNotAllowed } from './method-not-allowed.js';
import type { ContractOperations, HelperOperations } from './operation-types.js';
import { registerOperations } from './operations.js';
import { registerCheckoutRoutes } from './checkout-routes.js';
import { registerDashboardRoutes } from './dashboard-routes.js';
import { registerDocsRoutes } from './docs-routes.js';
import { registerReturnRoutes } from './return-routes.js';
import { checkAllowedHost, registerHostCheck } from './allowed-hosts.js';
import { checkCorsOrigin, LOOPBACK_ORIGINS, registerCors } from './cors.js';
import { type Lifecycle, RUNNING, registerProbes } from './probes.js';
import { registerRateLimit } from './rate-limit.js';
import { registerMetrics } from './metrics-route.js';
import type { SandboxMetrics } from '../metrics/sandbox-metrics.js';
import { registerRequestLog } from './request-log.js';
import { jsonLogOptions, registerJsonLog } from './json-log.js';
import { RateLimiter } from '../keys/rate-limiter.js';
import type { RateLimit } from '../domain/rate-limit.js';
import { sandboxAddress } from './sandbox-address.js';
import { clientErrorAnswerer, registerTransportErrors } from './transport-errors.js';
import { FairTurns, takesTurn } from './turns.js';

/** How long readiness waits for the wall clock to leave the seed catalog's millisecond (it takes one or two). */
const SEED_WAIT_LIMIT_MS = 20;

export interface SandboxOptions {
  store: SandboxStore;
  apiKeys?: ReadonlyMap<string, string>;
  logger?: FastifyServerOptions['logger'];
  /**
   * The scheme and host of every redirect_url (and the hosted pages' links), never a request's Host
   * header, which any client can set. A function when it is known only once the server listens.
   */
  publicUrl?: string | (() => string);
  /** Where ids come from; random by default. */
  ids?: IdSource;
  /**
   * Which pages may call the API from a browser (cors.ts): this machine's (`loopback`) by default, `*`, or one origin.
   */
  corsOrigin?: string;
  /** Receives one line per request (method, path, status, time); none when absent. */
  requestLog?: (line: string) => void;
  /** One JSON line per request on standard output, with its request id (json-log.ts), instead of the logger's. */
  jsonLog?: boolean;
  /** The built docs site (`npm run docs`), served at /docs; no /docs when absent. */
  docsDir?: string;
  /** More names the sandbox answers to (--allowed-hosts), beside an IP address, localhost and the public URL's host. */
  allowedHosts?: readonly string[];
  /** The sandbox's metrics, served at /metrics behind an admin key; no /metrics when absent. */
  metrics?: SandboxMetrics;
  /** The rate limit of each API key (domain/rate-limit.ts); none by default. */
  rateLimit?: RateLimit;
  /** Whether the sandbox is stopping, which /ready answers (never, by default). */
  lifecycle?: Lifecycle;
}

/**
 * The reads that need no transaction around them (operations.ts): a retrieve reads one stored
 * text; a list answers a kept page with no read at all, and reads a new page in a read
 * transaction of its own (handlers/payment-sessions.ts). BEGIN and COMMIT cost a kept page a third
 * of its time on SQLite, and two round trips on PostgreSQL.
 */
const SINGLE_READS: ReadonlySet<string> = new Set(['retrievePaymentSession', 'listPaymentSessions']);

/** Longest path segment accepted; longer ids simply are not found. */
const MAX_PARAM_LENGTH = 1000;

export function buildSandbox(options: SandboxOptions): FastifyInstance {
  const contract = loadDocument(CONTRACT_FILE);
  const helpers = loadDocument(SANDBOX_FILE);
  const { store } = options;
  const ids = options.ids ?? randomIds;
  const configured = options.publicUrl ?? 'http://127.0.0.1:4010';
  const publicUrl = typeof configured === 'function' ? configured : () => configured;
  const corsOrigin = options.corsOrigin ?? LOOPBACK_ORIGINS;
  checkCorsOrigin(corsOrigin);

  const app = Fastify({
    // The JSON log binds a child logger to each request's id; otherwise one logger serves every
    // request, not a child per request: the sandbox then logs only warnings, and the child cost a
    // few percent of a retrieve's time with the request log on.
    ...(options.jsonLog
      ? jsonLogOptions(new Set((options.apiKeys ?? DEFAULT_API_KEYS).keys()))
      : { logger: options.logger ?? false, childLoggerFactory: (logger) => logger }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A request whose body stalls is cut after a minute (408 RequestTimeout, transport-errors.ts)
    // rather than holding its connection open without end; no request of the sandbox takes that
    // long to send (a body is at most 256 KiB; the listener's long poll waits for its answer, not
    // for its request).
    requestTimeout: 60_000,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: clientErrorAnswerer(corsOrigin),
    // Node would answer a missing Host with an empty 400; registerTransportErrors answers it instead.
    http: { requireHostHeader: false },
    frameworkErrors: answerFrameworkError,
  });
  registerErrorPath(app);
  if (options.requestLog) registerRequestLog(app, options.requestLog);
  if (options.jsonLog) registerJsonLog(app);
  registerTransportErrors(app, corsOrigin);
  registerHostCheck(app, { publicUrl, names: (options.allowedHosts ?? []).map(checkAllowedHost) });
  registerCors(app, corsOrigin, requestHeaders([contract, helpers]));
  registerJsonParser(app);
  const apiKeys = options.apiKeys ?? DEFAULT_API_KEYS;
  registerAuth(app, apiKeys, store);
  if (options.metrics) registerMetrics(app, options.metrics);
  if (options.rateLimit)
    registerRateLimit(app, new RateLimiter(store, options.rateLimit), options.metrics?.rateLimited);
  // Every channel starts with the seed catalog (once: a replaced or emptied catalog stays so). The store answers
  // asynchronously, so it is laid down as the app gets ready: before it listens, or answers its first inject.
  // The app is ready once the wall clock has moved past the seed's millisecond, so that the seed predates every
  // request: a list filtered updated_after the first clock read never counts it. A wall clock that stands still
  // (a test's fake Date) is waited for a few milliseconds only: nothing can predate anything on it.
  app.addHook('onReady', async () => {
    await store.transaction(async () => {
      for (const channel of new Set(apiKeys.values()))
        await store.catalog.seed(channel, await store.clock.now(channel), () => `prod_${ids.short()}`);
    });
    const seededAt = Date.now();
    for (let waited = 0; waited < SEED_WAIT_LIMIT_MS && Date.now() <= seededAt; waited++)
      await new Promise((resolve) => setTimeout(resolve, 1));
  });

  // One set of turns for the heavy requests of every channel (turns.ts).
  const turns = new FairTurns();
  const contractCodes400 = codes400(contract);
  const replay = createReplay(idempotencyRules(contract));
  registerOperations<ContractOperations>(app, {
    validators: new SchemaValidators(contract),
    handlers: {
      ...paymentSessionHandlers(replay),
      ...paymentTokenHandlers(),
      ...catalogHandlers(),
      ...disputeHandlers(),
    },
    // Rule 4: a retry may break the schema where a replay does not compare, and still return its original.
    invalidBodyHandlers: {
      createPaymentSession: (violation, context, store) =>
        replay.answerInvalidBody(store, context, context.body, violation.fields),
    },
    codesFor: codesOf,
    store,
    ids,
    faults: true,
    publicUrl,
    singleRead: (id) => SINGLE_READS.has(id),
    takesTurn,
    turns,
  });
  const contractIds = new Set(listOperations(contract).map((o) => o.operation.operationId));
  // The listeners' waiting claims answer as the server closes, rather than hold its close up to 30 s.
  const listeners = new WebhookListeners(store);
  app.addHook('preClose', (done) => {
    listeners.close();
    done();
  });
  registerOperations<HelperOperations>(app, {
    validators: new SchemaValidators(helpers),
    handlers: sandboxHelperHandlers(
      { operationIds: contractIds, codes400: contractCodes400 },
      {
        sandboxAddress: () => sandboxAddress(app),
        listeners,
        ...(options.metrics ? { onAttempt: options.metrics.attempt } : {}),
      },
    ),
    invalidBodyHandlers: { createListenerAttempt: answerReportWithoutClaim },
    codesFor: () => HELPER_CODES,
    store,
    ids,
    publicUrl,
    turns,
  });
  registerMethodNotAllowed(app, [contract, helpers]);
  registerEvolutionDrill(app, store, contract);

  const documents = {
    '/openapi.json': { file: CONTRACT_FILE, type: 'application/json' },
    '/openapi.yaml': { file: CONTRACT_FILE.replace(/\.json$/, '.yaml'), type: 'application/yaml' },
    '/openapi-3.0.json': { file: CONTRACT_30_FILE, type: 'application/json' },
    '/openapi-3.0.yaml': { file: CONTRACT_30_FILE.replace(/\.json$/, '.yaml'), type: 'application/yaml' },
    '/sandbox/openapi.json': { file: SANDBOX_FILE, type: 'application/json' },
    '/sandbox/openapi.yaml': { file: SANDBOX_FILE.replace(/\.json$/, '.yaml'), type: 'application/yaml' },
  };
  for (const [url, { file, type }] of Object.entries(documents)) {
    const text = readFileSync(file, 'utf8');
    app.get(url, async (_request, reply) => reply.type(type).send(text));
  }
  registerProbes(app, store, options.lifecycle ?? RUNNING);
  // Every browser asks for it on every page: an empty answer, not a 404 that each page's console
  // would report as an error. The pages have no icon.
  app.get('/favicon.ico', async (_request, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
  app.get('/', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', INDEX_PAGE_POLICY)
      .header('x-frame-options', 'DENY')
      .send(indexPage(options.docsDir !== undefined, publicUrl())),
  );
  registerCheckoutRoutes(app, store, ids);
  registerDashboardRoutes(app, store, { docs: options.docsDir !== undefined });
  registerReturnRoutes(app, store, publicUrl);
  if (options.docsDir) registerDocsRoutes(app, options.docsDir);
  return app;
}
