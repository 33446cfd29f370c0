// `hsa-fsa-sandbox trigger EVENT`: fires one webhook event of the contract on a running sandbox,
// making what it needs through the public API and the helpers (triggers.ts), and prints the ids it
// made. `trigger --list` lists the events. An unknown name is a usage error that lists them. What
// it prints passes through printable() (terminal-text.ts), as `listen`'s lines do.
import { clearTextWarning } from './clear-text.js';
import { findTrigger, newUnique, triggerList, triggerNames } from './triggers.js';
import { parseOptions, SandboxApi, TARGET_OPTIONS, targetOf, UsageError } from './target.js';
import { printable } from './terminal-text.js';

export interface TriggerIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: TriggerIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

export async function trigger(args: string[], given: TriggerIo = defaultIo): Promise<void> {
  const io: TriggerIo = { out: (line) => given.out(printable(line)), err: (line) => given.err(printable(line)) };
  const { values, positionals } = parseOptions(
    args,
    { ...TARGET_OPTIONS, list: { type: 'boolean', short: 'l' } },
    true,
  );
  if (values.list) {
    for (const line of triggerList()) io.out(line);
    return;
  }
  const known = `the known ones: ${triggerNames().join(', ')} (trigger --list says what each does)`;
  if (positionals.length !== 1) throw new UsageError(`trigger takes one event name; ${known}`);
  const name = positionals[0]!;
  const found = findTrigger(name);
  if (!found) throw new UsageError(`unknown event ${JSON.stringify(name)}; ${known}`);
  const api = new SandboxApi(targetOf(values));
  const warning = clearTextWarning(api.target.sandbox);
  if (warning) io.err(warning);
  io.out(`Triggering ${found.name} on the sandbox at ${api.target.sandbox}:`);
  const closing = await found.run({ api, say: (line) => io.out(`  ${line}`), unique: newUnique() });
  io.out(closing);
  await hintWhenNobodyReceives(api, io);
}

/** Says so when no endpoint and no listener of the channel will receive the event: it waits in the outbox. */
async function hintWhenNobodyReceives(api: SandboxApi, io: TriggerIo): Promise<void> {
  const [{ endpoints }, { listeners }] = await Promise.all([
    api.ok('list webhook endpoints', () => api.helpers.GET('/sandbox/v1/webhook_endpoints')),
    api.ok('list webhook listeners', () => api.helpers.GET('/sandbox/v1/webhook_listeners')),
  ]);
  if (endpoints.length === 0 && listeners.length === 0) {
    io.out(
      "No webhook endpoint or listener receives this channel's events: it waits in the outbox (GET " +
        '/sandbox/v1/outbox). Forward them with: hsa-fsa-sandbox listen --forward-to URL',
    );
  }
}
