// `hsa-fsa-sandbox listen --forward-to URL`: forwards a running sandbox's webhooks to a receiver
// only this machine reaches, as `stripe listen` does. It registers a webhook listener (the helper
// document's Webhook listeners), claims its due deliveries by long poll, as many as it has free
// slots, POSTs each body as the sandbox signed it (as many at once as the dispatcher would), and
// reports what the receiver answered, so that the sandbox logs the attempt and retries a failure on
// its own schedule. One line per attempt. Ctrl-C removes the listener; a run that ended otherwise
// leaves it for 60 s, and a run started again with the same key, URL and events takes it up (the
// sandbox gives another run that is still claiming a listener of its own).
//
// It trusts only its own flags: it forwards to --forward-to, whatever URL the sandbox registered,
// with only the headers a receiver needs (forwarded-request.ts), and reports only what that
// receiver answered. It checks what the sandbox hands before using it (sandbox-answers.ts), and
// follows none of its redirects (sandbox-fetch.ts). Everything it prints passes through visible()
// (terminal-text.ts): a channel's data, such as a catalog item's sku, never reaches the terminal as
// escape sequences.
import { exitWhenOrphaned } from '../../orphan.js';
import { DELIVERY_TIMEOUT_MS, sendAttempt, type AttemptOutcome } from '../delivery/attempt.js';
import { InFlight } from '../delivery/in-flight.js';
import type { components } from '../../../generated/sandbox.js';
import { attemptLine, verdictOf, type AttemptVerdict } from './attempt-line.js';
import { clearTextWarning } from './clear-text.js';
import { parseEventFilter } from './event-filter.js';
import { forwardedRequest } from './forwarded-request.js';
import { asListener, asOutcome, chooseDeliveries, listenerFault, outcomeFault } from './sandbox-answers.js';
import { printable } from './terminal-text.js';
import {
  isHttpUrl,
  knownEventFilters,
  parseOptions,
  pause,
  Redirected,
  RefusedCall,
  SandboxApi,
  TARGET_OPTIONS,
  targetOf,
  Unreachable,
  UsageError,
  type Target,
} from './target.js';

type Listener = components['schemas']['WebhookListener'];
type ClaimedDelivery = components['schemas']['ListenerDelivery'];
/** Checked against the document's list by parseEventFilter. */
type EventFilter = components['schemas']['WebhookEventFilter'];

/** How long a claim waits for a delivery (the sandbox allows 30 s), and how long its answer may take beyond that. */
const WAIT_SECONDS = 25;
const CLAIM_TIMEOUT_MS = 40_000;
/** Waits between tries while the sandbox is not reachable. */
const REACH_AGAIN_MS = [500, 1000, 2000, 5000];
/** A claim that came back with nothing sooner than this is followed by a pause to this: a sandbox waits its `wait`. */
const EMPTY_CLAIM_MOST_OFTEN_MS = 1000;
/** How long the removal at Ctrl-C may take. */
const DETACH_TIMEOUT_MS = 5000;
/** The one receiver whose slots `sending` counts, and how often to look for one come free. */
const RECEIVER = 'receiver';
const LOOK_FOR_A_SLOT_MS = 100;

export interface ListenOptions {
  target: Target;
  forwardTo: string;
  eventTypes: string[];
}

export function parseListenArgs(args: string[], env: NodeJS.ProcessEnv = process.env): ListenOptions {
  const { values } = parseOptions(args, {
    ...TARGET_OPTIONS,
    'forward-to': { type: 'string', short: 'f' },
    events: { type: 'string', short: 'e' },
  });
  const forwardTo = values['forward-to'];
  if (forwardTo === undefined)
    throw new UsageError(
      'listen needs --forward-to URL: where your webhook receiver listens, such as http://localhost:3000/webhooks',
    );
  if (!isHttpUrl(forwardTo))
    throw new UsageError(
      `--forward-to must be an http or https URL, such as http://localhost:3000/webhooks, not ` +
        `${JSON.stringify(forwardTo)}`,
    );
  const url = new URL(forwardTo);
  if (url.username !== '' || url.password !== '')
    throw new UsageError(
      '--forward-to must not carry a user or a password: the sandbox would keep them with every attempt it logs',
    );
  return { target: targetOf(values, env), forwardTo, eventTypes: parseEventFilter(values.events, knownEventFilters()) };
}

export interface ListenIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: ListenIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** Runs until SIGINT or SIGTERM, then removes the listener; rejects with a CliError when the sandbox cannot be used. */
export async function listen(args: string[], given: ListenIo = defaultIo): Promise<void> {
  // Every line, whatever fills it: the sandbox's answers and a channel's data included.
  const io: ListenIo = { out: (line) => given.out(printable(line)), err: (line) => given.err(printable(line)) };
  const options = parseListenArgs(args);
  const warning = clearTextWarning(options.target.sandbox);
  if (warning) io.err(warning);
  const api = new SandboxApi(options.target);
  const register = async () => {
    const body = { forward_url: options.forwardTo, event_types: options.eventTypes as EventFilter[] };
    const answer: unknown = await api.ok('register the listener', () =>
      api.helpers.POST('/sandbox/v1/webhook_listeners', { body }),
    );
    const fault = listenerFault(answer);
    if (fault !== undefined) throw api.notASandbox('register the listener', 200, fault);
    const registered = asListener(answer);
    // A sandbox names the URL it was given, serialized; another is not where listen forwards.
    if (registered.forward_url !== new URL(options.forwardTo).href) {
      io.err(
        `warning: the sandbox registered the listener for ${registered.forward_url}; ` +
          `forwarding to --forward-to ${options.forwardTo} all the same.`,
      );
    }
    return registered;
  };
  // Ctrl-C is heard from before the listener exists: pressed as soon as the banner shows (or
  // before), it still removes the listener, rather than ending the process as Node's default would.
  const stopping = new AbortController();
  // A refused key, a redirect or an answer that is no sandbox's ends the run: removed all the same, then said.
  let fatal: unknown;
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      if (stopping.signal.aborted) return;
      stopping.abort();
      resolve();
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
    exitWhenOrphaned(stop);
  });
  const fail = (error: unknown) => {
    fatal ??= error;
    stop();
  };

  let listener = await register();
  io.out(`Ready! Your webhook signing secret is ${listener.secret} (the same on every run with this key and URL)`);
  io.out(
    `Forwarding ${listener.event_types.join(', ')} from the sandbox at ${options.target.sandbox} ` +
      `to ${options.forwardTo} (listener ${listener.id}). Press Ctrl-C to stop.`,
  );

  // The requests open at the receiver, under the dispatcher's slots (domain/delivery-slots.ts): 8
  // answering at once, one unanswered after 1 s giving up its slot, 64 open at most.
  const sending = new InFlight();
  const claims = async () => {
    let failures = 0;
    // Claims answered 404 in a row: the first registers again at once, the next at the reach-again pace.
    let gone = 0;
    while (!stopping.signal.aborted) {
      const free = sending.freeSlots(RECEIVER);
      if (free <= 0) {
        await Promise.race([...sending.runs(), pause(LOOK_FOR_A_SLOT_MS, stopping.signal)]);
        continue;
      }
      let answer: unknown;
      const asked = performance.now();
      try {
        answer = await api.ok('claim deliveries', () =>
          api.helpers.GET('/sandbox/v1/webhook_listeners/{listener_id}/deliveries', {
            params: { path: { listener_id: listener.id }, query: { wait: WAIT_SECONDS, limit: free } },
            signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(CLAIM_TIMEOUT_MS)]),
          }),
        );
      } catch (error) {
        if (stopping.signal.aborted) return;
        if (error instanceof RefusedCall && error.status === 404) {
          // Removed, or expired while the sandbox was away: the same key and URL give the same secret
          // back. Again at once, then at a pace: a sandbox that answers every claim 404 is no loop.
          if (gone > 0) await pause(REACH_AGAIN_MS[Math.min(gone - 1, REACH_AGAIN_MS.length - 1)]!, stopping.signal);
          gone++;
          if (stopping.signal.aborted) return;
          listener = await register();
          io.out(
            `The listener was gone (expired, or removed); registered again as ${listener.id}, with the same secret.`,
          );
          continue;
        }
        if (!(error instanceof Unreachable)) throw error;
        if (failures === 0) io.err(`${error.message}; trying again until it answers (Ctrl-C to stop).`);
        await pause(REACH_AGAIN_MS[Math.min(failures++, REACH_AGAIN_MS.length - 1)]!, stopping.signal);
        continue;
      }
      if (failures > 0) io.err(`The sandbox at ${options.target.sandbox} answers again.`);
      failures = 0;
      gone = 0;
      const chosen = chooseDeliveries(answer, free, sending.deliveryIds(RECEIVER));
      if (chosen === undefined) throw api.notASandbox('claim deliveries', 200, 'its deliveries are not a list');
      for (const line of chosen.skipped) io.err(line);
      // Each on its own: a slow answer holds up none of the others, nor the next claim.
      for (const delivery of chosen.forward) {
        const id = Number(delivery.delivery_id);
        const sent = forward({ api, listener, forwardTo: options.forwardTo, io, fail }, delivery)
          .catch((error: unknown) => io.err(`delivery ${id} could not be forwarded: ${(error as Error).message}`))
          .finally(() => sending.remove(RECEIVER, id));
        sending.add(RECEIVER, id, sent);
      }
      // A sandbox holds an empty claim for its wait; one answered at once again and again is no loop either.
      const early = EMPTY_CLAIM_MOST_OFTEN_MS - (performance.now() - asked);
      if (chosen.forward.length === 0 && early > 0) await pause(early, stopping.signal);
    }
  };

  const claiming = claims().catch(fail);
  await Promise.race([stopped, claiming]);
  stopping.abort();
  await claiming;
  await detach(api, listener, io);
  if (fatal !== undefined) throw fatal;
}

/** What a forward needs: the sandbox, the listener it claimed from, the flag's URL, the lines, how to end the run. */
interface Forwarding {
  api: SandboxApi;
  listener: Listener;
  forwardTo: string;
  io: ListenIo;
  /** Ends the run with `error`: a sandbox that redirects is not one to go on with. */
  fail: (error: unknown) => void;
}

/**
 * POSTs the delivery to the receiver at `forwardTo` (the flag's, never the sandbox's), and resolves
 * once it answered (or not, by the timeout); then reports the outcome and prints its line, on its
 * own. Never throws.
 */
async function forward(run: Forwarding, delivery: ClaimedDelivery): Promise<void> {
  const at = new Date();
  const outcome = await sendAttempt(forwardedRequest(run.forwardTo, delivery), DELIVERY_TIMEOUT_MS);
  // Reported on its own: the slot comes free once the receiver answered.
  report(run, delivery, at, outcome).catch(run.fail);
}

/** Reports what the receiver answered, and prints the attempt's line with the sandbox's verdict. Never throws. */
async function report(
  { api, listener, io, fail }: Forwarding,
  delivery: ClaimedDelivery,
  at: Date,
  outcome: AttemptOutcome,
): Promise<void> {
  let verdict: AttemptVerdict;
  try {
    const answer: unknown = await api.ok('report the attempt', () =>
      api.helpers.POST('/sandbox/v1/webhook_listeners/{listener_id}/attempts', {
        params: { path: { listener_id: listener.id } },
        body: {
          delivery_id: delivery.delivery_id,
          claim_id: delivery.claim_id,
          status: outcome.status,
          latency_ms: outcome.latencyMs,
          response_excerpt: outcome.response,
          error: outcome.error,
        },
      }),
    );
    const fault = outcomeFault(answer);
    verdict =
      fault === undefined
        ? verdictOf(asOutcome(answer))
        : { kind: 'unrecorded', reason: `the sandbox's answer is no record of it: ${fault}` };
  } catch (error) {
    if (error instanceof Redirected) return fail(error);
    verdict = { kind: 'unrecorded', reason: (error as Error).message };
  }
  io.out(
    attemptLine({
      at,
      eventType: delivery.event_type,
      objectId: delivery.object_id,
      attempt: delivery.attempt,
      status: outcome.status,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
      verdict,
    }),
  );
}

/** Removes the listener, and with it its pending deliveries. */
async function detach(api: SandboxApi, listener: Listener, io: ListenIo): Promise<void> {
  try {
    await api.ok('remove the listener', () =>
      api.helpers.DELETE('/sandbox/v1/webhook_listeners/{listener_id}', {
        params: { path: { listener_id: listener.id } },
        signal: AbortSignal.timeout(DETACH_TIMEOUT_MS),
      }),
    );
    io.out(`Stopped: listener ${listener.id} removed, with its pending deliveries.`);
  } catch (error) {
    if (error instanceof RefusedCall && error.status === 404)
      return io.out(`Stopped: listener ${listener.id} was already gone.`);
    io.err(
      `Stopped, but listener ${listener.id} could not be removed (${(error as Error).message}); it expires 60 s ` +
        `after its last claim.`,
    );
  }
}
