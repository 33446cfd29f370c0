// What the command line prints comes in part from a channel's data (a catalog item's sku, a
// dispute's id, a refusal's message quoting a request) and from the sandbox's answers. A terminal
// acts on some characters instead of showing them: an escape sequence can set the window's title,
// clear the screen, recolour or move the cursor, and a bidirectional override can reorder what a
// line seems to say. Others it shows as nothing at all: a zero-width space makes two different ids
// print the same, and tag characters hide text in a line. Every such character is shown as an
// escape that can be read, never sent raw.

/**
 * The characters a terminal may act on or shows as nothing: the controls (Unicode's Cc: C0, tab and
 * newline too since a printed field is one line, DEL, and C1, where U+009B is a one-byte CSI), the
 * line and paragraph separators, every format character (Cf: the bidirectional marks, embeddings,
 * overrides and isolates, the zero-width space, joiners and word joiner, the byte order mark, the
 * soft hyphen, the interlinear annotations, the tags), and the tag block's unassigned code points.
 */
const ACTED_ON = /[\p{Cc}\p{Cf}\u2028\u2029\u{e0000}-\u{e007f}]/gu;

/** A code point as an escape: `\x1b` up to U+00FF, `\u202e` up to U+FFFF, `\u{e0041}` beyond. */
function escaped(character: string): string {
  const code = character.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * `text` with every character a terminal would act on, or show as nothing, written as its escape;
 * everything else as is, a backslash included: a sku that spells `\x1b` reads the same as one that
 * holds ESC, and both are harmless.
 */
export function visible(text: string): string {
  return text.replace(ACTED_ON, escaped);
}

/** The longest line the command line prints of what a sandbox answered: a huge answer is no huge line. */
export const MOST_LINE_CHARS = 2000;

/** `text` cut to `most` characters, an ellipsis marking the cut. */
export function shortened(text: string, most: number): string {
  return text.length > most ? `${text.slice(0, most)}…` : text;
}

/** A line as the command line prints it: visible(), then cut to MOST_LINE_CHARS. */
export function printable(line: string): string {
  return shortened(visible(line), MOST_LINE_CHARS);
}

/**
 * `value` as one line of JSON that a terminal shows as it is: every character past ASCII written as
 * its \u escape, which JSON reads back as the same character. Never cut, since a script parses it.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
