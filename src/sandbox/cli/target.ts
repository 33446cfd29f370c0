// What `listen` and `trigger` share: which sandbox they talk to (--sandbox, --key, or SANDBOX_URL
// and SANDBOX_KEY), its two APIs over HTTP (the contract's typed client, and the helpers' typed by
// the helper document), and errors said in one line. They import nothing of the server: they run
// from the package against a sandbox on this machine or another, with only openapi-fetch installed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import createClient from 'openapi-fetch';
import type { paths as HelperPaths } from '../../../generated/sandbox.js';
import { createServiceClient, USER_AGENT } from '../../client/index.js';
import { AnswerTooLarge, fetchFromSandbox } from './sandbox-fetch.js';
import { shortened, visible } from './terminal-text.js';

export const DEFAULT_SANDBOX = 'http://127.0.0.1:4010';
export const DEFAULT_KEY = 'sandbox-dev-key';

/** A mistake in the command line: said in one line, exit code 2 (src/cli.ts reads the name). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
/** The sandbox could not be used (not reachable, a key refused, a refusal): said in one line, exit code 1. */
export class CliError extends Error {}

export const TARGET_OPTIONS = {
  sandbox: { type: 'string' },
  key: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** parseArgs, whose own errors become one line of usage. */
export function parseOptions<Options extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: Options,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    // "Unknown option '--x'. To specify a positional argument starting with a '-', …": its first sentence.
    throw new UsageError((error as Error).message.split(/\.\s/)[0]!.replace(/\.$/, ''));
  }
}

export interface Target {
  /** The sandbox's base URL, without a trailing slash. */
  sandbox: string;
  key: string;
}

/** --sandbox and --key, else SANDBOX_URL and SANDBOX_KEY, else the local sandbox and the development key. */
export function targetOf(
  values: { sandbox?: string | undefined; key?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
): Target {
  const sandbox = values.sandbox ?? env.SANDBOX_URL ?? DEFAULT_SANDBOX;
  const key = values.key ?? env.SANDBOX_KEY ?? DEFAULT_KEY;
  if (!isHttpUrl(sandbox))
    throw new UsageError(
      `--sandbox must be the sandbox's http(s) address, such as ${DEFAULT_SANDBOX}, not ${JSON.stringify(sandbox)}`,
    );
  if (key.trim() === '' || key !== key.trim())
    throw new UsageError(
      `--key must be an API key of the sandbox, without spaces around it, not ${JSON.stringify(key)}`,
    );
  return { sandbox: sandbox.replace(/\/+$/, ''), key };
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** What an openapi-fetch call resolves to. */
interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The sandbox over HTTP: its contract and its helpers, and their answers read as one-line errors. */
export class SandboxApi {
  readonly contract;
  readonly helpers;

  constructor(readonly target: Target) {
    // Both through fetchFromSandbox: a redirect of the sandbox is an answer, never followed.
    this.contract = createServiceClient({
      environment: target.sandbox,
      apiKey: target.key,
      retry: false,
      userAgent: 'hsa-fsa-sandbox-cli',
      fetch: fetchFromSandbox,
    });
    this.helpers = createClient<HelperPaths>({
      baseUrl: target.sandbox,
      headers: { 'x-service-api-key': target.key, 'user-agent': `${USER_AGENT} hsa-fsa-sandbox-cli` },
      fetch: fetchFromSandbox,
    });
  }

  /** The 200 body of `call`, named `what` in errors; a CliError otherwise (an abort is thrown as is). */
  async ok<Data>(what: string, call: () => Promise<Answer<Data>>): Promise<Data> {
    let answer: Answer<Data>;
    try {
      answer = await call();
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      if (error instanceof AnswerTooLarge) throw this.notASandbox(what, error.status, error.message);
      throw new Unreachable(this.unreachable(error));
    }
    const { status } = answer.response;
    if (answer.data !== undefined && status === 200) return answer.data;
    if (status >= 300 && status < 400) throw new Redirected(what, status, answer.response.headers.get('location'));
    if (status === 401) {
      throw new CliError(
        `the sandbox at ${this.target.sandbox} refused the key ${JSON.stringify(this.target.key)} (401 ` +
          `Unauthorized): give one of its keys with --key (or SANDBOX_KEY)`,
      );
    }
    const refusal = answer.error as { error?: unknown; message?: unknown } | undefined;
    if (typeof refusal?.error === 'string')
      throw new RefusedCall(what, status, refusal.error, String(refusal.message ?? ''));
    throw this.notASandbox(what, status);
  }

  /** The error for an answer that no sandbox gives: of another status, or another shape (`why`). */
  notASandbox(what: string, status: number, why?: string): CliError {
    const shape = why === undefined ? '' : ` (${why})`;
    return new CliError(
      `${what} answered ${status}, not an answer of the sandbox${shape}: is ${this.target.sandbox} a sandbox (npm ` +
        `start)?`,
    );
  }

  /** Why the sandbox could not be reached, in one line. */
  unreachable(error: unknown): string {
    const failure = error as Error & { cause?: { code?: string; message?: string } };
    const why = shortened(
      failure.name === 'TimeoutError'
        ? 'no answer in time'
        : (failure.cause?.code ?? failure.cause?.message ?? failure.message),
      MESSAGE_SHOWN_CHARS,
    );
    return (
      `the sandbox at ${this.target.sandbox} is not reachable (${why}): start it with npm start (or ` +
      `hsa-fsa-sandbox sandbox), or give its address with --sandbox URL`
    );
  }
}

/** No answer came from the sandbox: it is down, or elsewhere. */
export class Unreachable extends CliError {}

/** The longest Location a redirect's error quotes: a line stays a line. */
const LOCATION_SHOWN_CHARS = 200;

/**
 * A 3xx of the sandbox: never followed, since fetch would send the key, the method and the body
 * to the URL it names, which a hostile sandbox (or anyone in the middle of a plain-HTTP --sandbox)
 * chooses, and read back what answers there: an address only this machine reaches, say.
 */
export class Redirected extends CliError {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly location: string | null,
  ) {
    const shown = location === null ? 'no Location' : `Location ${visible(shortened(location, LOCATION_SHOWN_CHARS))}`;
    super(
      `${what} answered ${status}, a redirect (${shown}), which listen and trigger never follow: ` +
        "give the sandbox's own address with --sandbox (https://… if it redirects from http)",
    );
  }
}

/** The most of a refusal's code and message an error line quotes: a huge answer is no huge line. */
const CODE_SHOWN_CHARS = 100;
const MESSAGE_SHOWN_CHARS = 500;

/** A refusal of the sandbox, in the contract's shape: its status and code, for a caller that expects one. */
export class RefusedCall extends CliError {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${what} answered ${status} ${shortened(code, CODE_SHOWN_CHARS)}: ${shortened(detail, MESSAGE_SHOWN_CHARS)}`);
  }
}

/** The event types a listener may name, as the helper document lists them (WebhookEventFilter), read at run time. */
export function knownEventFilters(): string[] {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..', 'generated', 'sandbox.json');
  const document = JSON.parse(readFileSync(file, 'utf8')) as {
    components: { schemas: { WebhookEventFilter: { enum: string[] } } };
  };
  return document.components.schemas.WebhookEventFilter.enum;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
