// What the command line prints comes in part from a channel's data (a catalog item's sku, a
// dispute's id, a refusal's message quoting a request) and from the sandbox's answers. A terminal
// acts on some characters instead of showing them: an escape sequence can set the window's title,
// clear the screen, recolour or move the cursor, and a bidirectional override can reorder what a
// line seems to say. Every such character is shown as an escape that can be read, never sent raw.

/**
 * The characters a terminal may act on: C0 controls (tab and newline too: a printed field is one
 * line), DEL, C1 controls (U+009B is a one-byte CSI), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069).
 */
const ACTED_ON = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** A code point as an escape: `\x1b` up to U+00FF, `\u202e` beyond. */
function escaped(character: string): string {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character a terminal would act on shown as its escape; everything else as is,
 * a backslash included: a sku that spells `\x1b` reads the same as one that holds ESC, and both
 * are harmless.
 */
export function visible(text: string): string {
  return text.replace(ACTED_ON, escaped);
}
