// What a row of the partner matrix is: one generator in one language, and the four things it must
// do (generate, compile, run the flow, verify a webhook). Each row lives in rows/<id>.ts; the code a
// partner would write (the flow program, the webhook verifier, the build file) lives in partners/.
import type { RunResult } from './run-command.js';

export interface Toolchain {
  /** A command the row needs, looked up on the PATH (or an absolute path). */
  command: string;
  /** What to do when it is missing, named in the failure: e.g. "Go from https://go.dev/dl". */
  hint: string;
  /** Debian packages that provide it: installed with apt-get when the command is missing. */
  debian?: string[];
}

export interface RowContext {
  /** The repository's root. */
  root: string;
  /** This row's scratch folder, .partners/<id>/, emptied before the row runs. */
  workDir: string;
  /** Caches kept across runs and clones (a venv, a Maven repository, cargo's target folder): partnersCacheDir(). */
  cacheDir: string;
  /** The published documents. */
  documents: { openapi31: string; openapi30: string };
  /** Exact versions of generators and libraries, from toolchain.json's `partners`. */
  pins: Record<string, string>;
  /** Runs a command; throws with its output when it exits non-zero (unless allowFailure). */
  run(
    command: string,
    args: string[],
    options?: { cwd?: string; env?: Record<string, string>; allowFailure?: boolean; timeoutMs?: number },
  ): Promise<RunResult>;
  /** Writes a line to the matrix's log, prefixed with the row's id. */
  log(line: string): void;
}

/** What the flow program gets in its environment, and what it must print. */
export interface FlowEnvironment {
  PARTNER_BASE_URL: string;
  PARTNER_API_KEY: string;
  /** Unique to this row and run: the program uses it in its idempotency keys, email and metadata. */
  PARTNER_RUN: string;
}

/**
 * The flow program's last line is `PARTNER_RESULT <this as JSON>`. The same program runs twice: on
 * today's sandbox, and on the sandbox under the evolution drill (`sandbox --drill`), which plays a
 * later version of the service: every object of every answer carries a property the contract does
 * not declare (`added_later`), every value of an open enum in an answer is one the contract does not
 * list (`added_later` in the enum's own style: `Added Later` for `status_summary`), `service_fee` is
 * a number instead of a string, and the harness arms a fault that makes the void answer a 400 whose
 * `error` is a code the contract does not list (`AddedLater`). The program must meet all of this as
 * a partner's code should: decode, report the unknown as unknown, and never crash.
 */
export interface FlowResult {
  session_id: string;
  /** The cents the partial capture took (3000). */
  captured: number;
  refund_id: string;
  /** Whether the filtered list returned the session. */
  listed: boolean;
  /** The error code of the second capture, read through the generated client's error type (SessionCaptured). */
  capture_error: string;
  /**
   * The error code of a void of the captured session, as the service sent it: `SessionCaptured`
   * today, `AddedLater` under the drill.
   */
  void_error: string;
  /** Whether the generated client knows void_error as one of its documented codes (a constant of its enum). */
  void_error_known: boolean;
  /** The retrieved session's status_summary, as the service sent it: `Partially Refunded` today, `Added Later` under the drill. */
  status_summary: string;
  /** Whether the generated client knows status_summary as one of its documented values. */
  status_summary_known: boolean;
  /** The retrieved session's service_fee as the program read it, written as a decimal (`"0.00"` or `"0"`): a string today, a number under the drill. */
  service_fee: string;
}

/**
 * A client generated with the generator's defaults, and a short flow written against it: create an
 * authorization session, pay it through the sandbox's helper, retrieve it, list it with a filter,
 * capture 3000 of 5000 cents, refund 1000, capture again and read the 400's code, and read
 * status_summary and service_fee. It runs on today's sandbox and under the evolution drill, and must
 * meet both with no parse error and no value lost.
 */
export interface DefaultsClient {
  /**
   * What the row adds to the generator's defaults, each saying why: a package name, or an option
   * that only this machine's toolchain needs ("this machine's toolchain: mono targets net4.8").
   * Empty when the generator runs exactly as installed.
   */
  additions: string[];
  /** Generates the default client into ctx.workDir (its own folder) and compiles it with the defaults flow; the generator's warnings. */
  build(ctx: RowContext): Promise<{ warnings: string[] }>;
  /** Runs the defaults flow; its last line is `PARTNER_DEFAULTS_RESULT <DefaultsFlowResult as JSON>`. */
  flow(ctx: RowContext, env: FlowEnvironment): Promise<string>;
}

/** What the defaults flow prints: the flow's claims without the void and without telling known values from unknown ones. */
export type DefaultsFlowResult = Pick<
  FlowResult,
  'session_id' | 'captured' | 'refund_id' | 'listed' | 'capture_error' | 'status_summary' | 'service_fee'
>;

export interface VerifierInput {
  /** A file holding the delivery's body, byte for byte. */
  bodyFile: string;
  signatureHeader: string;
  secret: string;
}

export interface Row {
  id: string;
  language: string;
  generator: string;
  /** The pin (a key of toolchain.json's partners) that gives the generator's version. */
  generatorPin: string;
  /** Which document the generator reads. */
  document: '3.1' | '3.0';
  toolchain: Toolchain[];
  /** Generates the client into ctx.workDir. Returns the generator's warning lines. */
  generate(ctx: RowContext): Promise<{ warnings: string[] }>;
  /** Compiles the generated client with the partner's flow program and verifier. */
  compile(ctx: RowContext): Promise<void>;
  /** Runs the flow program; returns its whole output (the harness reads PARTNER_RESULT). */
  flow(ctx: RowContext, env: FlowEnvironment): Promise<string>;
  /**
   * Runs the webhook verifier: it must exit 0 for a genuine delivery and non-zero otherwise. On a
   * genuine delivery it prints `verified <event_type>`; when the event type is none of the
   * contract's webhooks (under the drill, `added_later`), it also prints
   * `ignored unknown event type <event_type>` and still exits 0: a receiver answers 204 and moves on.
   */
  verify(ctx: RowContext, input: VerifierInput): Promise<RunResult>;
  /** The generated type names of a session (retrieve's answer) and of capture's 400 body. */
  typeNames(ctx: RowContext): Promise<{ session: string; captureError: string }>;
  /**
   * The same generator with its defaults, as a partner runs it first: no template, no option but a
   * package name and what only this machine's toolchain needs (each listed in `additions`), and a
   * short flow written against what that client gives.
   */
  defaults?: DefaultsClient;
  /**
   * The row's samples program: one call of every operation of the contract through the generated
   * client, each between sample markers (SampleProgram), which the reference quotes as that
   * language's sample of the operation. compile() compiles it with the flow.
   */
  samples: SampleProgram;
}

/**
 * A program that calls every contract operation once. Each call stands between two marker lines,
 * `<comment> sample: <operationId>` and `<comment> end sample` (`<comment>` is `//` or `#`, the
 * language's line comment), which the docs cut out, dedented, as the operation's sample: what a
 * partner copies. Setup (the sandbox helpers that play the customer, the clinician or the card
 * network) stays outside the markers. It reads the same environment as the flow
 * (PARTNER_BASE_URL, PARTNER_API_KEY, PARTNER_RUN) and ends on the line
 * `PARTNER_SAMPLES {"<operationId>": <HTTP status it got>, …}`, one entry per operation.
 * `file`, `label` and `lang` are the row's entry of SAMPLE_PROGRAMS (build/lib/samples.mjs),
 * which the docs build reads without loading the rows: a row spreads `sampleProgramOf(<its id>)`.
 */
export interface SampleProgram {
  /** The program's path in the repository (partners/…), whose marked regions the reference quotes. */
  file: string;
  /** The tab's label in the reference (`Python (openapi-python-client)`), and Redoc's `lang` for highlighting (`python`). */
  label: string;
  lang: string;
  /** Runs the compiled program; returns its whole output. */
  run(ctx: RowContext, env: FlowEnvironment): Promise<string>;
}
