// What the delivery log keeps of a receiver's answer body: a short excerpt, labelled as one, with
// the body's full length, so that nobody takes it for the whole answer. Receivers answer 204 with
// an empty body; whatever else an address answers (an admin page, a secret) is not the log's to keep.

/** Characters (code points) of the body kept in the log. */
export const EXCERPT_CHARACTERS = 200;
/** Bytes of the body read at most, to count its length; a longer body is not read to its end. */
export const MOST_BODY_BYTES_READ = 1024 * 1024;

export interface ResponseExcerpt {
  /** The body's first characters, decoded as UTF-8 (invalid bytes read as U+FFFD). */
  text: string;
  /** Whether the body goes on past `text` (or was not read to its end). */
  truncated: boolean;
  /** The whole body's length in bytes; null when it was not read to its end. */
  body_bytes: number | null;
}

/** Takes a body chunk by chunk and keeps only its excerpt and its length. */
export function excerptCollector() {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let bytes = 0;
  let enough = false;
  return {
    /** Adds the next chunk; false once more than MOST_BODY_BYTES_READ came, when reading should stop. */
    add(chunk: Uint8Array): boolean {
      bytes += chunk.byteLength;
      if (!enough) {
        text += decoder.decode(chunk, { stream: true });
        enough = Array.from(text).length > EXCERPT_CHARACTERS;
      }
      return bytes <= MOST_BODY_BYTES_READ;
    },
    /** The excerpt; `ended` says whether the body was read to its end. */
    result(ended: boolean): ResponseExcerpt {
      if (ended && !enough) text += decoder.decode();
      const characters = Array.from(text);
      return {
        text: characters.slice(0, EXCERPT_CHARACTERS).join(''),
        truncated: !ended || characters.length > EXCERPT_CHARACTERS,
        body_bytes: ended ? bytes : null,
      };
    },
  };
}
