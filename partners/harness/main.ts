// npm run partners: the partner matrix. For each language a partner writes its server in, it
// generates a client from the published document with the generator partners use, compiles it,
// runs one real flow against a sandbox on :memory:, reads an error code in that language's idiom,
// and verifies a signed delivery from the sandbox with that language's standard HMAC library.
// It runs the row's samples program too (every operation of the contract once, each call marked as
// the sample the API reference quotes), and the curl samples (partners/curl/samples.sh) first.
// Then it runs the flow and the verifier again against a second sandbox that plays a later version
// of the service (`sandbox --drill`, the evolution drill): the same client must read what that
// version adds (properties, enum values, an error code, service_fee as a number) and ignore an
// event type it does not know.
// A row with a `defaults` client also generates its client with the generator's defaults (only a
// package name, and what this machine's toolchain needs) into .partners/<id>-defaults/, and runs a
// short flow written against it today and under the drill: the Defaults column. What each row adds
// to those defaults is printed below the table.
// Last, every command block of the row's NOTES.md runs as written, in a copy of a fresh clone
// (.partners/<id>-notes/), against today's sandbox: the Notes column (notes-step.ts).
//   npm run partners                       every row
//   npm run partners -- --only go,java     the rows whose id starts with one of these
//   npm run partners -- --only curl        the curl samples alone
// Generators and toolchains are pinned in toolchain.json (`partners`); what the machine lacks is
// installed from the registries (PyPI, Maven Central, the Go module proxy, npm, Debian's packages).
// It prints one table, and writes it with the details to test-results/partners.{md,json}.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startSandboxProcess } from '../../testkit/sandbox-process.js';
import { startDeliveryLog } from './deliveries.js';
import { checkDefaultsFlow, checkFlow, UNLISTED_VOID_CODE, type Service } from './flow-check.js';
import { UNKNOWN_EVENT_TYPE } from '../../src/sandbox/domain/evolution-drill.js';
import {
  additionsSection,
  defaultsNotRun,
  matrixTable,
  notRun,
  type DefaultsReport,
  type RowReport,
  type StepResult,
} from './report.js';
import type { DefaultsClient, Row, RowContext, SampleProgram } from './row.js';
import { rows } from './rows/index.js';
import { CommandFailed, runCommand, tail } from './run-command.js';
import { ensureToolchain } from './toolchain.js';
import { partnerPins } from './pins.js';
import { partnersCacheDir } from './cache-dir.js';
import { checkUnknownEvent, checkVerifier } from './verifier-check.js';
import { checkSampleProgram } from './samples-check.js';
import { CURL_TOOLCHAIN, curlSamples, curlVersion } from './curl.js';
import { operationIdsOf } from '../../build/lib/samples.mjs';
import { runNotesBlocks } from './notes-step.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const wanted = values.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const selected = wanted ? rows.filter((row) => wanted.some((prefix) => row.id.startsWith(prefix))) : rows;
const withCurl = !wanted || wanted.some((prefix) => 'curl'.startsWith(prefix));
if (selected.length === 0 && !withCurl) {
  console.error(`--only ${values.only} names no row. The rows: curl, ${rows.map((row) => row.id).join(', ')}.`);
  process.exit(2);
}

const API_KEY = 'sandbox-dev-key';
const SECRET = 'whsec_partner_matrix_secret';
const pins = partnerPins(root);
/** The operations every samples program calls, from the published document. */
const operationIds = operationIdsOf(JSON.parse(readFileSync(path.join(root, 'generated', 'openapi.json'), 'utf8')));

/** A sandbox on :memory: with a delivery log as its channel's webhook endpoint. */
async function serviceWithDeliveries(args: string[] = []) {
  const sandbox = await startSandboxProcess({ args });
  const deliveries = await startDeliveryLog();
  const endpoint = await helper(sandbox.baseUrl, '/sandbox/v1/webhook_endpoints', {
    url: deliveries.url,
    secret: SECRET,
  });
  if (endpoint.status !== 200 && endpoint.status !== 201)
    throw new Error(`adding the webhook endpoint answered ${endpoint.status}: ${await endpoint.text()}`);
  return {
    sandbox,
    deliveries,
    stop: async () => {
      await deliveries.close();
      await sandbox.stop();
    },
  };
}
function helper(baseUrl: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': API_KEY },
    body: JSON.stringify(body),
  });
}

const today = await serviceWithDeliveries();
const later = await serviceWithDeliveries(['--drill']);
console.log(
  `Partner matrix: ${selected.length} rows${withCurl ? ' and the curl samples' : ''}, against the sandbox at ${today.sandbox.baseUrl}, and under the evolution drill at ${later.sandbox.baseUrl}.`,
);

const reports: RowReport[] = [];
try {
  if (withCurl) reports.push(await runCurl());
  for (const row of selected) reports.push(await runRow(row));
} finally {
  await today.stop();
  await later.stop();
}

const additions = additionsSection(reports);
const table = additions ? `${matrixTable(reports)}\n\n${additions}` : matrixTable(reports);
console.log(`\n${table}`);
mkdirSync(path.join(root, 'test-results'), { recursive: true });
writeFileSync(path.join(root, 'test-results', 'partners.md'), `${table}\n`);
writeFileSync(path.join(root, 'test-results', 'partners.json'), `${JSON.stringify(reports, null, 2)}\n`);
const failed = reports.filter((report) => !report.passed);
if (failed.length > 0) {
  console.error(
    `\n${failed.length} of ${reports.length} rows failed: ${failed.map((r) => r.id).join(', ')}. Details above and in test-results/partners.json.`,
  );
  process.exit(1);
}
console.log(`\nEvery row passed (${reports.length}).`);

/** A row's scratch folder, emptied, and what its steps get. */
function rowContext(id: string): RowContext {
  const workDir = path.join(root, '.partners', id);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const log = (line: string) => console.log(`[${id}] ${line}`);
  const ctx: RowContext = {
    root,
    workDir,
    cacheDir: partnersCacheDir(),
    documents: {
      openapi31: path.join(root, 'generated', 'openapi.json'),
      openapi30: path.join(root, 'generated', 'openapi-3.0.json'),
    },
    pins,
    run: (command, args, options = {}) => runCommand(command, args, { cwd: workDir, ...options }),
    log,
  };
  mkdirSync(ctx.cacheDir, { recursive: true });
  return ctx;
}

/** Runs one step of a report (a row's, or its defaults client's): its time, and its error's last lines when it fails. */
function stepper<Name extends string>(
  report: { steps: Record<Name, StepResult | 'not run'> },
  log: (line: string) => void,
) {
  return async (name: Name, action: () => Promise<void>): Promise<boolean> => {
    const started = Date.now();
    log(`${name}…`);
    try {
      await action();
      report.steps[name] = { ok: true, seconds: (Date.now() - started) / 1000 };
      return true;
    } catch (error) {
      const message = error instanceof CommandFailed ? error.message : String((error as Error).stack ?? error);
      report.steps[name] = {
        ok: false,
        seconds: (Date.now() - started) / 1000,
        error: tail(message, 40),
      } satisfies StepResult;
      log(`${name} FAILED:\n${tail(message, 40)}`);
      return false;
    }
  };
}

/** The curl samples, on today's sandbox: a line of the table where only the samples step applies. */
async function runCurl(): Promise<RowReport> {
  const ctx = rowContext('curl');
  const report: RowReport = {
    id: 'curl',
    language: 'curl',
    generator: 'curl',
    version: '',
    document: null,
    warnings: [],
    steps: notRun(),
    passed: false,
  };
  report.passed = await stepper(report, ctx.log)('samples', async () => {
    await ensureToolchain(CURL_TOOLCHAIN, ctx.log);
    report.version = curlVersion((await ctx.run('curl', ['--version'])).output);
    await runSamples(curlSamples, ctx, 'curl');
  });
  return report;
}

async function runRow(row: Row): Promise<RowReport> {
  const ctx = rowContext(row.id);
  const report: RowReport = {
    id: row.id,
    language: row.language,
    generator: row.generator,
    version: pins[row.generatorPin] ?? '(not pinned)',
    document: row.document,
    warnings: [],
    steps: notRun(),
    passed: false,
  };
  const step = stepper(report, ctx.log);
  const ok =
    (await step('toolchain', () => ensureToolchain(row.toolchain, ctx.log))) &&
    (await step('generate', async () => {
      report.warnings = (await row.generate(ctx)).warnings;
    })) &&
    (await step('compile', () => row.compile(ctx))) &&
    (await step('flow', async () => {
      report.sessionId = await runFlow(row, ctx, today.sandbox.baseUrl, 'today');
    })) &&
    (await step('webhook', async () => {
      const delivery = await today.deliveries.find(report.sessionId!);
      await checkVerifier(row, ctx, delivery, SECRET);
    })) &&
    (await step('samples', () => runSamples(row.samples, ctx, row.id))) &&
    (await step('drill', async () => {
      // The void of the flow answers a code the contract does not list, as a later version could.
      const fault = await helper(later.sandbox.baseUrl, '/sandbox/v1/faults', {
        operation_id: 'voidPaymentSession',
        status: 400,
        error: UNLISTED_VOID_CODE,
      });
      if (fault.status !== 200)
        throw new Error(`arming the void's fault answered ${fault.status}: ${await fault.text()}`);
      const sessionId = await runFlow(row, ctx, later.sandbox.baseUrl, 'drill');
      await checkVerifier(row, ctx, await later.deliveries.find(sessionId, 'payment_session_complete'), SECRET);
      await checkUnknownEvent(row, ctx, await later.deliveries.find(sessionId, UNKNOWN_EVENT_TYPE), SECRET);
    }));
  try {
    report.typeNames = await row.typeNames(ctx);
  } catch (error) {
    ctx.log(`type names: ${(error as Error).message}`);
  }
  // The defaults client needs the row's toolchain, but not its customized client.
  if (row.defaults && report.steps.toolchain !== 'not run' && report.steps.toolchain.ok)
    report.defaults = await runDefaults(row, row.defaults);
  // So do the NOTES' command blocks, which build what they need in a copy of a fresh clone.
  const notesRan =
    report.steps.toolchain !== 'not run' &&
    report.steps.toolchain.ok &&
    (await step('notes', () => runNotesBlocks(rowContext(`${row.id}-notes`), row.id, today.sandbox.baseUrl)));
  report.passed = ok && (report.defaults?.passed ?? true) && notesRan;
  return report;
}

/** The row's generator with its defaults, in .partners/<id>-defaults/: built, then its flow today and under the drill. */
async function runDefaults(row: Row, defaults: DefaultsClient): Promise<DefaultsReport> {
  const ctx = rowContext(`${row.id}-defaults`);
  const report: DefaultsReport = {
    additions: defaults.additions,
    warnings: [],
    steps: defaultsNotRun(),
    passed: false,
  };
  const step = stepper(report, ctx.log);
  report.passed =
    (await step('build', async () => {
      report.warnings = (await defaults.build(ctx)).warnings;
    })) &&
    (await step('today', async () => {
      await runDefaultsFlow(row, defaults, ctx, today.sandbox.baseUrl, 'today');
    })) &&
    // No fault is armed for it: the defaults flow does not void.
    (await step('drill', async () => {
      await runDefaultsFlow(row, defaults, ctx, later.sandbox.baseUrl, 'drill');
    }));
  return report;
}

/** Runs a samples program against today's sandbox: every operation 2xx, each marked once. */
function runSamples(program: SampleProgram, ctx: RowContext, id: string): Promise<void> {
  const run = `${id}-samples-${Date.now().toString(36)}`;
  return checkSampleProgram(
    program,
    ctx,
    { PARTNER_BASE_URL: today.sandbox.baseUrl, PARTNER_API_KEY: API_KEY, PARTNER_RUN: run },
    operationIds,
  );
}

/** Runs a defaults flow against a sandbox and checks its claims, as runFlow does; the session id. */
async function runDefaultsFlow(
  row: Row,
  defaults: DefaultsClient,
  ctx: RowContext,
  baseUrl: string,
  service: Service,
): Promise<string> {
  const run = `${row.id}-defaults-${service}-${Date.now().toString(36)}`;
  const output = await defaults.flow(ctx, { PARTNER_BASE_URL: baseUrl, PARTNER_API_KEY: API_KEY, PARTNER_RUN: run });
  return checkDefaultsFlow(output, { baseUrl, apiKey: API_KEY }, run, service);
}

/** Runs the row's flow program against a sandbox and checks its claims; the session id. */
async function runFlow(row: Row, ctx: RowContext, baseUrl: string, service: Service): Promise<string> {
  const run = `${row.id}-${service}-${Date.now().toString(36)}`;
  const output = await row.flow(ctx, { PARTNER_BASE_URL: baseUrl, PARTNER_API_KEY: API_KEY, PARTNER_RUN: run });
  return checkFlow(output, { baseUrl, apiKey: API_KEY }, run, service);
}
