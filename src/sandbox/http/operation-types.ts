// Handlers typed by operationId from the generated documents: path, query and body come from the
// operation's parameters and request body, and what a handler returns must be its 200 body. A
// handler for an operationId the document does not have does not compile (see Handlers).
import type { operations as ContractOperations } from '../../../generated/schema.js';
import type { operations as HelperOperations } from '../../../generated/sandbox.js';
import type { Refusal } from '../domain/errors.js';
import type { SandboxStore } from '../store/store.js';
import type { IdSource } from '../ids.js';
import type { BodyViolation } from './request-validation.js';

export type { ContractOperations, HelperOperations };

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : undefined;
type Parameters<Operation, In extends 'path' | 'query'> = Operation extends { parameters: { [K in In]?: infer P } }
  ? [P] extends [never | undefined]
    ? Record<string, never>
    : NonNullable<P>
  : Record<string, never>;

export type PathOf<Operation> = Parameters<Operation, 'path'>;
export type QueryOf<Operation> = Parameters<Operation, 'query'>;
/** The JSON body; undefined where the body is optional and was not sent. */
export type BodyOf<Operation> = Operation extends { requestBody: infer R }
  ? JsonOf<R>
  : Operation extends { requestBody?: infer R }
    ? JsonOf<NonNullable<R>> | undefined
    : undefined;
export type OkBodyOf<Operation> = Operation extends { responses: { 200: infer Ok } } ? JsonOf<Ok> : never;

export interface OperationContext<Operation> {
  /** The sales channel of the request's API key; never empty. */
  channel: string;
  path: PathOf<Operation>;
  query: QueryOf<Operation>;
  body: BodyOf<Operation>;
  /**
   * The query as sent, for parameters the document leaves undocumented (the /v1/disputes cursor):
   * a handler that reads one validates it itself.
   */
  rawQuery: Readonly<Record<string, string | string[] | undefined>>;
  /** The channel's sandbox clock, ISO 8601. */
  now: string;
  /** Where every id the request mints comes from. */
  ids: IdSource;
  /**
   * The sandbox's public scheme and host, for redirect URLs and the hosted pages' links: --public-url,
   * or the listen address (app.ts, publicUrl); never the request's Host header, which any client sets.
   */
  origin: string;
}

/**
 * A refusal that must be answered after the request's writes commit: the failed capture of an
 * expired hold stores `authorization_expired`, then answers SessionExpired.
 */
export class RefusedAfterCommit {
  constructor(readonly refusal: Refusal) {}
}

/**
 * A 200 body already serialized (a list page joined from stored renderings), sent as is. The type
 * parameter names the body it stands for, so that a handler still answers its operation's shape.
 */
export class PreRenderedJson<Body> {
  declare readonly body?: Body;
  constructor(readonly json: string) {}
}

/**
 * A 200 body that comes later (a long poll): the handler's transaction ends, then the route awaits
 * `answer`, which runs transactions of its own and may throw a refusal. `gone` aborts when the
 * client goes away first.
 */
export class AnswerLater<Body> {
  constructor(readonly answer: (gone: AbortSignal) => Promise<Body>) {}
}

/** What a handler answers: at once, or once the store's calls it awaits have answered. */
export type HandlerResult<Operation> =
  | OkBodyOf<Operation>
  | PreRenderedJson<OkBodyOf<Operation>>
  | AnswerLater<OkBodyOf<Operation>>
  | RefusedAfterCommit;

export type Handler<Operation> = (
  context: OperationContext<Operation>,
  store: SandboxStore,
) => HandlerResult<Operation> | Promise<HandlerResult<Operation>>;

/** Handlers of some operations of a document, keyed by operationId. */
export type Handlers<Operations> = { [Op in keyof Operations]?: Handler<Operations[Op]> };

/**
 * What an operation answers to a body its schema refuses, in place of the refusal: undefined keeps
 * the refusal. The context's body is the body as sent, valid outside `violation.fields` only.
 */
export type InvalidBodyHandler<Operation> = (
  violation: BodyViolation,
  context: OperationContext<Operation>,
  store: SandboxStore,
) => Promise<OkBodyOf<Operation> | undefined> | OkBodyOf<Operation> | undefined;

/** The operations that answer some refused bodies themselves, keyed by operationId. */
export type InvalidBodyHandlers<Operations> = { [Op in keyof Operations]?: InvalidBodyHandler<Operations[Op]> };
