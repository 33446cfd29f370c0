// `listen --events a,b`: the event types a listener receives, among the names a webhook endpoint
// takes (the helper document's WebhookEventFilter: the events, `dispute.*` and `*`).
import { UsageError } from './target.js';

/** Most event types a listener names (WebhookListenerRequest's maxItems). */
const MOST_EVENT_TYPES = 20;

/**
 * The names in `text` (comma-separated), or every event (`*`) when it is absent; a UsageError names what is unknown.
 */
export function parseEventFilter(text: string | undefined, known: readonly string[]): string[] {
  if (text === undefined) return ['*'];
  const names = [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
  const list = `the known ones: ${known.join(', ')}`;
  if (names.length === 0) throw new UsageError(`--events needs at least one event type; ${list}`);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown event type${unknown.length > 1 ? 's' : ''} ` +
        `${unknown.map((name) => JSON.stringify(name)).join(', ')} in --events; ${list}`,
    );
  if (names.length > MOST_EVENT_TYPES) throw new UsageError(`--events names at most ${MOST_EVENT_TYPES} event types`);
  return names;
}
