// The most a list sends in one answer. The service states no such bound; the sandbox keeps one so
// that no page holds its one event loop for long, nor its memory: a page that would be larger is
// refused, and its items are rendered one at a time, none past the bound (openapi/sandbox.yaml,
// Limits). Pure.

/** Bytes of JSON (UTF-8) in one answer of a list, envelope included. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export const utf8Bytes = (text: string) => Buffer.byteLength(text);

/** The refusal's message: the bound, and what to ask for instead. */
export const answerTooLarge = (instead: string) =>
  `The page would answer more than ${MAX_ANSWER_BYTES} bytes (${MAX_ANSWER_BYTES / 1024 / 1024} MiB) of JSON, the ` +
  `most the sandbox sends in one answer: ${instead}.`;

export interface BoundedAnswer {
  /** What comes before the items' array, and after it. */
  prefix: string;
  suffix: string;
  /** The items, rendered as they are asked for. */
  items: Iterable<string>;
  /** Bytes the items are known to take at least, from stored lengths: past the bound, none is rendered. */
  knownBytes?: number;
  tooLarge: () => Error;
  bound?: number;
}

/** `prefix[item,…]suffix`, or `tooLarge()` thrown as soon as it would pass the bound. */
export function boundedAnswer({
  prefix,
  suffix,
  items,
  knownBytes = 0,
  tooLarge,
  bound = MAX_ANSWER_BYTES,
}: BoundedAnswer): string {
  const envelope = utf8Bytes(prefix) + utf8Bytes(suffix) + 2;
  if (envelope + knownBytes > bound) throw tooLarge();
  const rendered: string[] = [];
  let bytes = envelope;
  for (const item of items) {
    bytes += utf8Bytes(item) + (rendered.length > 0 ? 1 : 0);
    if (bytes > bound) throw tooLarge();
    rendered.push(item);
  }
  return `${prefix}[${rendered.join(',')}]${suffix}`;
}

/** Each item as JSON, rendered only when it is asked for. */
export function* rendered<T>(items: Iterable<T>, view: (item: T) => unknown): Generator<string> {
  for (const item of items) yield JSON.stringify(view(item));
}
