// Registers every operation of a document as a fastify route: validation compiled from the
// document, an armed fault if any, then the handler in one transaction. Operations without a
// handler answer 501 NotImplemented, as the contract allows.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperationError } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import { listOperations, type LocatedOperation, type SchemaValidators } from './document.js';
import type { ValidationCodes } from './error-codes.js';
import { MalformedBody, registerBodyDrain } from './body-parsing.js';
import { validateRequest } from './request-validation.js';
import { channelOf } from './auth.js';

export interface OperationContext {
  channel: string;
  path: Record<string, any>;
  query: Record<string, any>;
  body: any;
  /** The channel's sandbox clock, ISO 8601. */
  now: string;
  /**
   * The body broke the schema only in fields that an idempotent replay does not compare: the
   * handler throws this unless the request replays an earlier one (create payment session, rule 4).
   */
  deferredViolation?: OperationError;
  /** Scheme and host the partner called, for redirect URLs. */
  origin: string;
}

export interface OperationResult {
  status: number;
  body?: unknown;
}

export type OperationHandler = (context: OperationContext, store: Store) => OperationResult;

export interface RouteConfig {
  operationId: string;
  codes: ValidationCodes;
  requiresKey: true;
  /** False for an operation without a handler: it answers 501 whatever else is wrong with the request. */
  implemented: boolean;
}

export const notImplemented = (operationId: string) =>
  new OperationError(501, 'NotImplemented', `${operationId} is not implemented in the sandbox yet.`);

export interface RegisterOptions {
  validators: SchemaValidators;
  handlers: Record<string, OperationHandler>;
  codesFor: (operationId: string) => ValidationCodes;
  store: Store;
  /** Whether armed faults (POST /sandbox/v1/faults) apply to these operations. */
  faults: boolean;
  /** Whether the operation's 400 enum has ServerError, for a 400 fault. */
  serverErrorIn400?: (operationId: string) => boolean;
  /** Scheme and host for redirect URLs when the request's Host header cannot be trusted. */
  publicUrl: string;
  /** Top-level body fields whose violations wait until an idempotent replay is ruled out. */
  replayIgnores?: (operationId: string) => ((field: string) => boolean) | undefined;
}

/** The origin the partner called, if its Host header is a plain host[:port]; else the public URL. */
function originOf(request: FastifyRequest, publicUrl: string): string {
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(request.host) ? `${request.protocol}://${request.host}` : publicUrl;
}

/** `/a/{b}/c` → `/a/:b/c` */
export const fastifyPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

export function sendError(reply: FastifyReply, error: OperationError) {
  return reply.code(error.status).send(error.body ?? { error: error.code, message: error.message });
}

function hasJsonBody(request: FastifyRequest): boolean {
  return request.body !== undefined && request.body !== null;
}

/** Operations whose body has no fields (cancel): the body is not read at all. */
export const ignoresBody = (located: LocatedOperation, validators: SchemaValidators) => {
  const ref = located.operation.requestBody?.content['application/json']?.schema?.$ref;
  if (!ref || located.operation.requestBody?.required) return false;
  const schema = validators.document.components.schemas?.[ref.split('/').pop()!] as { properties?: object } | undefined;
  return schema !== undefined && schema.properties === undefined;
};

export function registerOperations(app: FastifyInstance, options: RegisterOptions): LocatedOperation[] {
  const located = listOperations(options.validators.document);
  for (const entry of located) {
    // An operation without a handler answers 501 whatever the body: it reads none.
    const skipBody = ignoresBody(entry, options.validators) || !options.handlers[entry.operation.operationId];
    // A route that reads no body lives in its own context, whose parser drains any body unread.
    if (skipBody) {
      void app.register(async (context) => {
        registerBodyDrain(context);
        registerRoute(context, entry, options, skipBody);
      });
    } else {
      registerRoute(app, entry, options, skipBody);
    }
  }
  return located;
}

function registerRoute(app: FastifyInstance, entry: LocatedOperation, options: RegisterOptions, skipBody: boolean): void {
  const { operationId } = entry.operation;
  const codes = options.codesFor(operationId);
  app.route({
    method: entry.method.toUpperCase() as 'GET' | 'POST' | 'PUT',
    url: fastifyPath(entry.path),
    config: { operationId, codes, requiresKey: true, implemented: options.handlers[operationId] !== undefined } satisfies RouteConfig,
    handler: async (request, reply) => {
      try {
        const channel = channelOf(request);
        if (options.faults) {
          const fault = options.store.read(() => options.store.faults.take(channel, operationId));
          if (fault) {
            const status = fault === 400 && options.serverErrorIn400?.(operationId) ? 400 : 500;
            throw new OperationError(status, 'ServerError', 'An injected sandbox fault: the service failed. Retry with the same idempotency key.');
          }
        }
        const handler = options.handlers[operationId];
        if (!handler) throw notImplemented(operationId);
        if (!skipBody && request.body instanceof MalformedBody) {
          const field = request.body.field;
          throw new OperationError(400, (field !== undefined && codes.fields?.[field]) || codes.invalid, request.body.message);
        }
        const replayIgnores = options.replayIgnores?.(operationId);
        const input = validateRequest(entry, options.validators, codes, {
          params: request.params as Record<string, string>,
          query: request.query as Record<string, string | string[]>,
          body: skipBody ? undefined : request.body,
          hasBody: !skipBody && hasJsonBody(request),
          ...(replayIgnores ? { deferrable: replayIgnores } : {}),
        });
        const origin = originOf(request, options.publicUrl);
        // Reads need no write lock; every write of a request is one IMMEDIATE transaction.
        const run = entry.method === 'get' ? options.store.read.bind(options.store) : options.store.transaction.bind(options.store);
        const result = run(() =>
          handler({
            channel, path: input.path, query: input.query, body: input.body, now: options.store.clock.now(channel), origin,
            ...(input.deferred ? { deferredViolation: input.deferred } : {}),
          }, options.store),
        );
        return reply.code(result.status).send(result.body);
      } catch (error) {
        if (error instanceof OperationError) return sendError(reply, error);
        throw error;
      }
    },
  });
}
