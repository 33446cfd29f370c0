#!/usr/bin/env node
// One entry point: `sandbox` (the stateful reference server), `mock` (Prism), `docs` (rendered
// reference), and `listen` and `trigger`, which drive a running sandbox over HTTP (sandbox/cli/).
// Installed from the package, it is the `hsa-fsa-sandbox` command (compiled to dist/).
import { spawn } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exitWhenOrphaned } from './orphan.js';
import { packageRoot } from './package-root.js';
import { unsupportedNodeReason } from './runtime.js';
import { apiKeysLine } from './sandbox/cli/banner.js';
import { parseRateLimit } from './sandbox/domain/rate-limit.js';
import { printable } from './sandbox/cli/terminal-text.js';

/** The sandbox's own dependencies are optional peers of the package: the client stays light without them. */
const SANDBOX_PEERS = 'fastify@5 better-sqlite3@13 ajv@8 ajv-formats@3';

const USAGE =
  `Usage: hsa-fsa-sandbox <command> [options]
  sandbox [--host H] [--port P] [--db FILE|:memory:|postgres://…] [--reset] [--cors-origin O] [--quiet]
          [--webhook-url URL [--webhook-secret whsec_…]] [--docs DIR] [--public-url URL] [--drill]
          [--allowed-hosts NAME,…] [--rate-limit off|N|N/BURST] [--log text|json] [--detached]
      the stateful sandbox (default 127.0.0.1:4010, .sandbox/sandbox.db); --db postgres://… runs
      it on PostgreSQL, where several sandboxes share one database; --reset starts with an
      empty database; --quiet stops the line per request; --webhook-url sends the development
      channel's webhooks there, signed (a secret is made when none is given); --docs serves that
      built docs site at /docs (default: site/ beside the package); --public-url is the scheme
      and host of every redirect_url (default: the address it listens on). On an address other
      machines can reach, it refuses the published development keys: set SANDBOX_API_KEYS.
      --cors-origin: which pages may call the API from a browser (default: this machine's pages;
      an origin such as https://shop.example, or * for any). --drill: every channel plays a later
      version of the service (the evolution drill: added properties, enum values and events).
      It answers only to an IP address, localhost and the public URL's host (a guard against
      DNS rebinding); --allowed-hosts names others (a leading dot allows the subdomains too).
      --rate-limit: each API key's requests per second and burst, across every sandbox on the
      database (default 100/1000; off for none); past it, 429 TooManyRequests with Retry-After.
      --log json: one JSON line per request with its request id (x-request-id), for a log store.
      --detached: keeps running when the process that started it exits or its terminal closes (a
      shell that started it in the background); without it, a sandbox whose parent is gone
      stops, as npm start needs.
  mock [--host H] [--port P] [prism options]            the Prism mock of the examples (default 127.0.0.1:4011)
  docs [--out DIR] [--if-stale]                         builds the docs site (default site/); installed from the
      package, it copies the site the package ships (the one the sandbox serves at /docs) to DIR
  listen --forward-to URL [--events a,b] [--sandbox URL] [--key KEY]
      forwards a running sandbox's webhooks (here or on another machine) to your receiver at URL,
      signed; prints the signing secret (the same on every run with this key and URL) and a line
      per attempt. --events: which (the names of a webhook endpoint, dispute.* or *; default *).
      Ctrl-C removes the listener. Killed instead, its listener waits at least 35 s after it was
      killed (60 s after its last claim began): a listen with the same key, URL and --events
      started within them receives what was fired meanwhile. Default sandbox http://127.0.0.1:4010,
      key sandbox-dev-key; a --sandbox on another machine over plain http gets a warning (the key
      travels in clear text).
  keys create --channel NAME|--admin | list [--channel NAME|--admin] | rotate KEY_ID [--overlap SECONDS]
          | revoke KEY_ID   [--db FILE|postgres://…] [--json]
      manages the API keys of a database's channels while sandboxes run on it: a key made is shown
      once (the database keeps its hash), and every sandbox on the database serves it, or refuses
      a revoked one, from its next request. A rotated key stays valid for --overlap seconds
      (default 86400). An admin key opens the admin helpers and /metrics (Authorization: Bearer).
      Default --db: SANDBOX_DB, else .sandbox/sandbox.db
  trigger EVENT [--sandbox URL] [--key KEY]              fires a webhook event of the contract, making what it
      needs through the API and the helpers, and prints the ids it made; trigger --list lists them
Environment: HOST, PORT, SANDBOX_DB, SANDBOX_API_KEYS ("key:channel,key:channel"), SANDBOX_WEBHOOK_URL, ` +
  `SANDBOX_WEBHOOK_SECRET, SANDBOX_DOCS_DIR, SANDBOX_PUBLIC_URL, SANDBOX_ALLOWED_HOSTS, SANDBOX_RATE_LIMIT, SANDBOX_LOG;
  for listen and trigger, SANDBOX_URL and SANDBOX_KEY.`;

async function loadSandbox(): Promise<typeof import('./sandbox/server.js')> {
  // V8 keeps the compiled code of the sandbox and its dependencies on disk (the operating system's
  // temporary folder), so that a start after the first compiles none of it again: a third of the
  // start-up was compiling modules (npm run bench, "start-up").
  module.enableCompileCache?.();
  try {
    return await import('./sandbox/server.js');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      `the sandbox needs its dependencies, which this package lists as optional peers: npm install --save-dev ` +
        `${SANDBOX_PEERS} (${(error as Error).message})`,
    );
  }
}

/** --webhook-url and --webhook-secret (or SANDBOX_WEBHOOK_URL and SANDBOX_WEBHOOK_SECRET). */
function webhookOption(url: string | undefined, secret: string | undefined) {
  if (url === undefined || url === '') {
    if (secret) throw new Error('--webhook-secret needs --webhook-url');
    return {};
  }
  return { webhook: { url, ...(secret ? { secret } : {}) } };
}

async function sandbox(args: string[]) {
  const { startSandbox } = await loadSandbox();
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string', short: 'h' },
      port: { type: 'string', short: 'p' },
      db: { type: 'string' },
      reset: { type: 'boolean' },
      'cors-origin': { type: 'string' },
      quiet: { type: 'boolean' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      docs: { type: 'string' },
      'public-url': { type: 'string' },
      drill: { type: 'boolean' },
      'allowed-hosts': { type: 'string' },
      'rate-limit': { type: 'string' },
      log: { type: 'string' },
      detached: { type: 'boolean' },
    },
  });
  const log = values.log ?? process.env.SANDBOX_LOG ?? 'text';
  if (log !== 'text' && log !== 'json') throw new Error(`--log is text or json, not ${JSON.stringify(log)}`);
  const allowedHosts = (values['allowed-hosts'] ?? process.env.SANDBOX_ALLOWED_HOSTS)
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  // An empty variable is no setting, as SANDBOX_API_KEYS's.
  const rateLimitText = values['rate-limit'] ?? (process.env.SANDBOX_RATE_LIMIT || undefined);
  const rateLimit = rateLimitText === undefined ? undefined : parseRateLimit(rateLimitText);
  if (typeof rateLimit === 'object' && 'problem' in rateLimit)
    throw new Error(
      values['rate-limit'] === undefined
        ? rateLimit.problem.replace(/^--rate-limit/, 'SANDBOX_RATE_LIMIT')
        : rateLimit.problem,
    );
  const stopping = { watchParent: values.detached !== true, jsonLog: log === 'json' };
  const port = Number(values.port ?? process.env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number, not ${values.port ?? process.env.PORT}`);
  const running = await startSandbox({
    host: values.host ?? process.env.HOST ?? '127.0.0.1',
    port,
    db: values.db ?? process.env.SANDBOX_DB ?? path.join('.sandbox', 'sandbox.db'),
    ...(process.env.SANDBOX_API_KEYS ? { apiKeys: process.env.SANDBOX_API_KEYS } : {}),
    ...(values.quiet ? { quiet: true } : {}),
    ...(values.reset ? { reset: true } : {}),
    ...(values.drill ? { drill: true } : {}),
    ...(allowedHosts && allowedHosts.length > 0 ? { allowedHosts } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    log,
    ...(values['cors-origin'] ? { corsOrigin: values['cors-origin'] } : {}),
    ...((values['public-url'] ?? process.env.SANDBOX_PUBLIC_URL)
      ? { publicUrl: values['public-url'] ?? process.env.SANDBOX_PUBLIC_URL }
      : {}),
    ...webhookOption(
      values['webhook-url'] ?? process.env.SANDBOX_WEBHOOK_URL,
      values['webhook-secret'] ?? process.env.SANDBOX_WEBHOOK_SECRET,
    ),
    // The site `npm run docs` builds, beside the package (a clone, or an installed package that has one).
    docsDir: path.resolve(values.docs ?? process.env.SANDBOX_DOCS_DIR ?? path.join(packageRoot, 'site')),
  });
  if (log === 'json') {
    // One line a log store reads as the others; the keys, as the text banner says them.
    console.log(
      JSON.stringify({
        level: 30,
        time: Date.now(),
        msg: 'Sandbox listening',
        address: running.address,
        public_url: running.publicUrl,
        database: running.database,
        api_keys: apiKeysLine(running.apiKeys, Boolean(process.env.SANDBOX_API_KEYS)),
        rate_limit: running.rateLimit,
      }),
    );
    return stopOnSignals(running, stopping);
  }
  console.log(`Sandbox listening on ${running.address}`);
  console.log(`  Runtime:   Node ${process.version} (${process.execPath})`);
  if (running.publicUrl !== running.address)
    console.log(`  Public:    ${running.publicUrl}   — the host of every redirect_url (--public-url)`);
  console.log(`  API keys:  ${apiKeysLine(running.apiKeys, Boolean(process.env.SANDBOX_API_KEYS))}`);
  console.log(
    running.rateLimit === 'off'
      ? '  Limit:     none (--rate-limit off)'
      : `  Limit:     ${running.rateLimit.perSecond} requests per second per key, in bursts of up to ` +
          `${running.rateLimit.burst}   — past it, 429 with Retry-After (--rate-limit)`,
  );
  console.log(`  Contract:  ${running.address}/openapi.json  ${running.address}/openapi.yaml`);
  console.log(
    `  3.0:       ${running.address}/openapi-3.0.json  ${running.address}/openapi-3.0.yaml   — the same contract, ` +
      `for tools that read only OpenAPI 3.0`,
  );
  console.log(
    `  Helpers:   ${running.address}/sandbox/openapi.json (the customer, the review, the clock, tokens, the ` +
      `catalog, disputes, webhooks)`,
  );
  if (running.docs) {
    const state = running.docs.building
      ? running.docs.built
        ? ' (guides, the reference, and a console that sends requests here; being rebuilt in the background)'
        : ' (being built in the background: the page reloads itself until they are ready)'
      : running.docs.built
        ? ' (guides, the reference, and a console that sends requests here)'
        : ' (not built: run npm run docs)';
    console.log(`  Docs:      ${running.docs.url}${state}`);
  }
  console.log(
    !running.persistent
      ? '  Database:  :memory: (gone when the sandbox stops)'
      : `  Database:  ${running.database}${values.reset ? ' (reset)' : ''}   — the state persists across restarts; ` +
          `--reset starts empty`,
  );
  if (values.drill)
    console.log(
      '  Drill:     on   — every channel plays a later version of the service (PUT /sandbox/v1/evolution_drill ' +
        'turns one off)',
    );
  console.log(
    running.webhook
      ? `  Webhooks:  ${running.webhook.url} (channel ${running.webhook.channel}, ` +
          `${running.webhook.event_types.join(', ')}), ` +
          `${running.webhook.mode === 'legacy' ? 'legacy, shared secret' : 'signed with'} ${running.webhook.secret}`
      : '  Webhooks:  none sent; forward them to your receiver with hsa-fsa-sandbox listen --forward-to URL (npm ' +
          'run listen -- …), add an endpoint with --webhook-url URL, or POST /sandbox/v1/webhook_endpoints',
  );
  stopOnSignals(running, stopping);
}

/**
 * SIGINT and SIGTERM stop the sandbox gracefully, within its deadline (graceful-stop.ts); so do a
 * hang-up and its parent's end, unless --detached. With --log json, the stop is a line of the log.
 */
function stopOnSignals(
  running: { close(): Promise<void>; stopDeadlineMs: number },
  { watchParent, jsonLog }: { watchParent: boolean; jsonLog: boolean },
) {
  let stopping = false;
  const stop = (why: string) => {
    // One stop, whatever asks for it next (a second signal, the parent's end meanwhile).
    if (stopping) return;
    stopping = true;
    if (jsonLog) console.log(JSON.stringify({ level: 30, time: Date.now(), msg: 'Sandbox stopping', reason: why }));
    // Whatever is left by then (a request stuck behind a database that does not answer) is cut.
    setTimeout(() => {
      console.error(
        `The sandbox did not finish its work within ${running.stopDeadlineMs / 1000} s of the signal: exiting.`,
      );
      process.exit(1);
    }, running.stopDeadlineMs).unref();
    running.close().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(`The sandbox stopped with an error: ${error.message}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop(signal));
  if (watchParent) {
    // A terminal that closes hangs its jobs up: the sandbox stops as it would on SIGTERM.
    process.once('SIGHUP', () => stop('SIGHUP'));
    exitWhenOrphaned(() => stop('the process that started it exited'));
  } else {
    // Detached, it outlives its terminal: a hang-up (the terminal closed) is not for it, as nohup.
    process.on('SIGHUP', () => {});
  }
}

/**
 * The docs builder of a clone (build/docs.mjs), on this Node: it stays out of the package. It
 * imports TypeScript, whose types Node strips by default from 22.18; before, only when asked.
 */
function runDocsBuilder(file: string, args: string[]) {
  const stripTypes = process.features.typescript ? [] : ['--experimental-strip-types'];
  const child = spawn(process.execPath, [...stripTypes, file, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
  exitWhenOrphaned(() => child.kill('SIGTERM'));
  child.on('exit', (code) => process.exit(code ?? 1));
}

/**
 * `docs` in an installed package: the builder (and its tools) stay in the repository, and the
 * package ships the site built from this version's contract, which is copied to --out.
 */
function copyShippedSite(args: string[]) {
  const { values } = parseArgs({ args, options: { out: { type: 'string' }, 'if-stale': { type: 'boolean' } } });
  const site = path.join(packageRoot, 'site');
  if (!existsSync(path.join(site, 'index.html')))
    throw new Error(
      'docs.mjs is not part of this installation, nor is a built site: run it from a clone of the repository (npm ' +
        'run docs)',
    );
  const out = path.resolve(values.out ?? 'site');
  cpSync(site, out, { recursive: true });
  console.log(
    `Copied the docs of this version into ${path.relative(process.cwd(), out) || '.'}: open index.html, or /docs ` +
      `on the sandbox (it serves them without this copy).`,
  );
}

const [command, ...rest] = process.argv.slice(2);
try {
  const tooOld = unsupportedNodeReason(process.version);
  if (tooOld) throw new Error(tooOld);
  if (command === 'sandbox') await sandbox(rest);
  else if (command === 'mock') await (await import('./mock/prism-mock.js')).runMock(rest);
  else if (command === 'docs') {
    const builder = path.join(packageRoot, 'build', 'docs.mjs');
    if (existsSync(builder)) runDocsBuilder(builder, rest);
    else copyShippedSite(rest);
  } else if (command === 'listen') {
    await (await import('./sandbox/cli/listen.js')).listen(rest);
    // Forwards still in flight end with the process: the listener that awaited them is gone.
    process.exit(0);
  } else if (command === 'trigger') await (await import('./sandbox/cli/trigger.js')).trigger(rest);
  else if (command === 'keys') {
    module.enableCompileCache?.();
    await (await import('./sandbox/cli/keys.js')).keys(rest);
  } else {
    console.error(USAGE);
    process.exit(command === undefined || command === '--help' ? 0 : 2);
  }
} catch (error) {
  // The message may quote the sandbox's answer, which a channel's data fills: shown, never acted on.
  console.error(`error: ${printable((error as Error).message)}`);
  // A mistake in the command line (an unknown option or event name) is a usage error.
  process.exit((error as Error).name === 'UsageError' ? 2 : 1);
}
