// Body bytes to text with TextDecoder rather than Buffer, which edge runtimes lack. ignoreBOM keeps
// a leading BOM in the text, as Buffer#toString does, so both paths see the same JSON.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function bodyText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : decoder.decode(body);
}
