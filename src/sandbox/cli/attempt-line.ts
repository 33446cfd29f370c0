// The line `listen` prints for each attempt it forwards: when, the event type, what it is about,
// the receiver's status and latency, and, for a failure, when the sandbox tries again.
import type { components } from '../../../generated/sandbox.js';

type RecordedAttempt = components['schemas']['ListenerAttemptOutcome'];

/** What the sandbox made of an attempt: delivered, due again, failed for good, or not recorded (and why). */
export type AttemptVerdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; dueAt: string; inMs: number }
  | { kind: 'failed' }
  | { kind: 'unrecorded'; reason: string };

export interface ForwardedAttempt {
  /** When it was forwarded (real time). */
  at: Date;
  eventType: string;
  objectId: string | null;
  /** Which attempt of the delivery, from 1. */
  attempt: number;
  /** The receiver's status; null when none answered. */
  status: number | null;
  error: string | null;
  latencyMs: number;
  verdict: AttemptVerdict;
}

/** The verdict the sandbox's record of the attempt gives. */
export function verdictOf({ attempt, next_attempt_at: nextAt }: RecordedAttempt): AttemptVerdict {
  if (attempt.delivery_status === 'delivered') return { kind: 'delivered' };
  if (nextAt === null) return { kind: 'failed' };
  // From when the answer came (the attempt's start and latency), on the sandbox clock, which may be days ahead of the
  // real time.
  return {
    kind: 'retry',
    dueAt: nextAt,
    inMs: Math.max(0, Date.parse(nextAt) - Date.parse(attempt.attempted_at) - attempt.latency_ms),
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local time, to the second. */
export function localTime(at: Date): string {
  return (
    `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ` +
    `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`
  );
}

/** A duration as a person reads it: 850 ms, 1.2 s, 4 min, 1.0 h. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** The longest event type of the contract, product_catalog.item.eligibility_updated, and a UUID. */
const EVENT_COLUMN = 40;
const OBJECT_COLUMN = 36;

export function attemptLine(forwarded: ForwardedAttempt): string {
  const answer =
    forwarded.status === null
      ? `no answer (${forwarded.error ?? 'unknown'})`
      : `${forwarded.status}${forwarded.error ? ` (${forwarded.error})` : ''}`;
  const columns = [
    localTime(forwarded.at),
    forwarded.eventType.padEnd(EVENT_COLUMN),
    (forwarded.objectId ?? '-').padEnd(OBJECT_COLUMN),
    answer,
    `${Math.round(forwarded.latencyMs)} ms`,
  ];
  return `${columns.join('  ')}${tail(forwarded)}`;
}

function tail({ verdict, attempt, status }: ForwardedAttempt): string {
  switch (verdict.kind) {
    case 'delivered':
      return '';
    case 'retry':
      return (
        `  FAILED${status !== null && status >= 200 && status < 300 ? ' (only 204 delivers)' : ''}: retry ` +
        `${attempt + 1} due in ${duration(verdict.inMs)} (${verdict.dueAt} on the sandbox clock)`
      );
    case 'failed':
      return '  FAILED for good: its 7 days of retries are over';
    case 'unrecorded':
      return `  (not recorded: ${verdict.reason})`;
  }
}
