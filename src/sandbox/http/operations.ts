// Registers every operation of a document as a fastify route: the route needs a key, an armed
// fault fails it, the body and parameters are validated against the document, and the handler runs
// in one transaction (a write's shared with the other writes of its turn: store/group-commit.ts). Operations without a
// handler answer 501 NotImplemented, as the contract
// allows. Every refusal is thrown, and answered by http/errors.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdSource } from '../ids.js';
import type { SandboxStore } from '../store/store.js';
import { channelOf } from './auth.js';
import { MalformedBody, registerBodyDrain } from './body-parsing.js';
import { fastifyPath, listOperations, type LocatedOperation, type SchemaValidators } from './document.js';
import { takesAdminKey } from './document-facts.js';
import type { ValidationCodes } from './error-codes.js';
import { injectedFault, notImplemented, type RouteFacts, type HttpRefusal } from './errors.js';
import {
  AnswerLater,
  PreRenderedJson,
  RefusedAfterCommit,
  type Handler,
  type InvalidBodyHandler,
  type InvalidBodyHandlers,
  type OperationContext,
} from './operation-types.js';
import { refusal, validateRequest } from './request-validation.js';
import type { FairTurns } from './turns.js';

export interface RouteConfig extends RouteFacts {
  operationId: string;
  codes: ValidationCodes;
  /** A channel's key (the contract's operations, the helpers), or an admin key (the Administration helpers). */
  requiresKey?: true;
  requiresAdmin?: true;
  implemented: boolean;
}

export interface RegisterOptions<Operations> {
  validators: SchemaValidators;
  handlers: { [Op in keyof Operations]?: Handler<Operations[Op]> };
  codesFor: (operationId: string) => ValidationCodes;
  store: SandboxStore;
  ids: IdSource;
  /** Armed faults (POST /sandbox/v1/faults) apply to these operations (the contract's). */
  faults?: boolean;
  /** The scheme and host of every redirect_url: configured, never taken from a request's Host header. */
  publicUrl: () => string;
  /** Operations that may still answer a body their schema refuses; every other operation refuses it. */
  invalidBodyHandlers?: InvalidBodyHandlers<Operations>;
  /**
   * Operations whose handler reads one statement, or answers from a cache and opens a read
   * transaction of its own for what it reads beside it: they run without a transaction around
   * them, since a statement is answered from one snapshot anyway, and BEGIN and COMMIT cost more
   * than the read.
   */
  singleRead?: (operationId: string) => boolean;
  /** Requests that may read thousands of rows or make a large answer: each waits for its channel's turn (turns.ts). */
  takesTurn?: (operationId: string, query: Readonly<Record<string, unknown>>) => boolean;
  /** The turns they wait for. */
  turns: FairTurns;
}

/**
 * The checkout method's fields are undocumented, not absent: its body is read, so that one that is
 * not an object gets the operation's (inferred) 400, as the document says.
 */
const READS_UNDECLARED_FIELDS = new Set(['retrieveCheckoutMethod']);

/**
 * Operations that take no body (delete payment token) or one without fields (cancel, accept dispute): the body is not
 * read at all.
 */
export const ignoresBody = (located: LocatedOperation, validators: SchemaValidators) => {
  if (located.operation.requestBody === undefined) return true;
  if (READS_UNDECLARED_FIELDS.has(located.operation.operationId)) return false;
  const ref = located.operation.requestBody.content['application/json']?.schema?.$ref;
  if (!ref || located.operation.requestBody.required) return false;
  const schema = validators.document.components.schemas?.[ref.split('/').pop()!] as { properties?: object } | undefined;
  return schema !== undefined && schema.properties === undefined;
};

export function registerOperations<Operations>(app: FastifyInstance, options: RegisterOptions<Operations>): void {
  for (const entry of listOperations(options.validators.document)) {
    const handler = (options.handlers as Record<string, Handler<unknown> | undefined>)[entry.operation.operationId];
    // An operation without a handler answers 501 whatever the body: it reads none.
    const skipBody = ignoresBody(entry, options.validators) || !handler;
    // A route that reads no body lives in its own context, whose parser drains any body unread.
    if (skipBody) {
      void app.register(async (context) => {
        registerBodyDrain(context);
        registerRoute(context, entry, handler, options, skipBody);
      });
    } else {
      registerRoute(app, entry, handler, options, skipBody);
    }
  }
}

/**
 * Spends an armed fault of the operation, if any: the refusal to answer, or undefined. The spend
 * is a write of its own (store.transaction, so it waits for another process's write): a GET's
 * read transaction could not upgrade to write while another process holds the lock.
 */
async function takeFault<Operations>(
  options: RegisterOptions<Operations>,
  channel: string,
  operationId: string,
): Promise<HttpRefusal | undefined> {
  if (!options.faults || !(await options.store.faults.anyArmed(channel))) return undefined;
  const fault = await options.store.transaction(() => options.store.faults.take(channel, operationId));
  if (!fault) return undefined;
  if (fault.status === 501) return injectedFault(501, 'NotImplemented');
  // The helper armed a 400 only with a code the operation's 400 lists, or, under the evolution
  // drill, one a later version could add; anything else it armed as the shared 500.
  return fault.status === 400 ? injectedFault(400, fault.error) : injectedFault(500, 'ServerError');
}

const runDirectly = <T>(fn: () => T): T => fn();

function registerRoute<Operations>(
  app: FastifyInstance,
  entry: LocatedOperation,
  handler: Handler<unknown> | undefined,
  options: RegisterOptions<Operations>,
  skipBody: boolean,
): void {
  const { operationId } = entry.operation;
  const codes = options.codesFor(operationId);
  const singleRead = entry.method === 'get' && options.singleRead?.(operationId) === true;
  const admin = takesAdminKey(entry);
  const invalidBodyHandler = (
    options.invalidBodyHandlers as Record<string, InvalidBodyHandler<unknown> | undefined> | undefined
  )?.[operationId];
  app.route({
    method: entry.method.toUpperCase() as 'GET' | 'POST' | 'PUT',
    url: fastifyPath(entry.path),
    config: {
      operationId,
      codes,
      ...(admin ? { requiresAdmin: true } : { requiresKey: true }),
      implemented: handler !== undefined,
    } satisfies RouteConfig,
    handler: async (request, reply) => {
      // An admin's request acts for no channel: its context's channel is empty. Its answer may show
      // a key, once: no cache keeps it.
      if (admin) reply.header('cache-control', 'no-store');
      const channel = admin ? '' : channelOf(request);
      // The cached clock, faults and features are current as the request starts (store/fact-cache.ts).
      await options.store.revalidate();
      const fault = await takeFault(options, channel, operationId);
      if (fault) throw fault;
      // A heavy request waits for its channel's turn, and holds it until its answer is made (turns.ts).
      const release = options.takesTurn?.(operationId, request.query as Record<string, unknown>)
        ? await options.turns.enter(channel)
        : undefined;
      try {
        return await answer(request, reply, channel);
      } finally {
        release?.();
      }
    },
  });

  async function answer(request: FastifyRequest, reply: FastifyReply, channel: string) {
    // The rest of the request is one transaction (a write waits for every other writer): the
    // handler reads one snapshot. A GET's never writes; a single read needs none.
    // A write goes in its channel's lane of the group commit (store/group-commit.ts).
    const run =
      entry.method !== 'get'
        ? <T>(fn: () => Promise<T>) => options.store.write(fn, channel)
        : singleRead
          ? runDirectly
          : options.store.read;
    const result = await run(async () => {
      if (!handler) throw notImplemented(operationId);
      if (!skipBody && request.body instanceof MalformedBody) {
        const { field, message } = request.body;
        throw refusal((field !== undefined && codes.fields?.[field]) || codes.invalid, message);
      }
      const input = validateRequest(entry, options.validators, codes, {
        params: request.params as Record<string, string>,
        query: request.query as Record<string, string | string[]>,
        body: skipBody ? undefined : request.body,
        // A JSON null is a body, and no object: only an empty body is none.
        hasBody: !skipBody && request.body !== undefined,
      });
      const context: OperationContext<unknown> = {
        channel,
        path: input.path as never,
        query: input.query as never,
        body: input.body as never,
        rawQuery: request.query as Record<string, string | string[]>,
        now: await options.store.clock.now(channel),
        ids: options.ids,
        origin: options.publicUrl(),
      };
      if (input.bodyViolation) {
        // The handler never sees a body its schema refuses: the operation's own answer to it, if any, or the refusal.
        const answer = await invalidBodyHandler?.(input.bodyViolation, context, options.store);
        if (answer === undefined) throw input.bodyViolation.refusal;
        return answer;
      }
      return handler(context, options.store);
    });
    if (result instanceof RefusedAfterCommit) throw result.refusal;
    // The answer is returned for fastify to send, never the reply: an async handler that returns the reply (a
    // thenable) has it awaited, which watches the response to its end whenever an onSend hook has not finished.
    reply.code(200);
    if (result instanceof PreRenderedJson) {
      reply.type('application/json; charset=utf-8');
      return result.json;
    }
    if (result instanceof AnswerLater) {
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      // A client gone before now has closed already, its 'close' past (a command line killed mid-request).
      if (reply.raw.destroyed) gone.abort();
      return await result.answer(gone.signal);
    }
    return result;
  }
}
