// The ISO text of a clock's instant, as the store writes and answers it. A busy sandbox asks for
// the same millisecond many times over (every request reads its channel's clock), and formatting
// a Date costs more than the rest of the clock's read: the text of the last millisecond is kept.

let lastMs = Number.NaN;
let lastText = '';

/** `new Date(ms).toISOString()`, the last millisecond's text kept. */
export function clockText(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}
