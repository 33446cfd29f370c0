// Sequence diagrams of the guides, drawn as SVG at build time: participants side by side, their
// lifelines, and one arrow per message, top to bottom. Graphviz lays out graphs, not sequences,
// and a few lines of SVG do this without a script in the reader's browser.

const escapeHtml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLUMN = 190;
const ROW = 46;
const TOP = 56;

/**
 * A sequence diagram. `steps` are messages `{ from, to, text, reply? }` (a reply is dashed) or
 * notes `{ note, over }` spanning the named participants.
 */
export function sequenceSvg({ title, participants, steps }) {
  const x = (name) => {
    const i = participants.indexOf(name);
    if (i < 0) throw new Error(`Unknown participant ${name} in "${title}"`);
    return COLUMN / 2 + i * COLUMN;
  };
  const width = participants.length * COLUMN;
  const height = TOP + steps.length * ROW + 40;
  const parts = [];
  for (const name of participants) {
    parts.push(`<rect x="${x(name) - 78}" y="8" width="156" height="34" rx="6" fill="#eef2ff" stroke="#3730a3"/>`);
    parts.push(`<text x="${x(name)}" y="30" text-anchor="middle" font-weight="600">${escapeHtml(name)}</text>`);
    parts.push(
      `<line x1="${x(name)}" y1="42" x2="${x(name)}" y2="${height - 8}" stroke="#9ca3af" stroke-dasharray="4 4"/>`,
    );
  }
  steps.forEach((step, n) => {
    const y = TOP + n * ROW + 24;
    if (step.note) {
      const xs = step.over.map(x);
      // As wide as its participants, or as its text (about 6.5 px a character at 12 px).
      const half = Math.max((Math.max(...xs) - Math.min(...xs)) / 2 + 80, step.note.length * 3.3 + 12);
      const middle = (Math.max(...xs) + Math.min(...xs)) / 2;
      const [left, right] = [Math.max(2, middle - half), Math.min(width - 2, middle + half)];
      parts.push(
        `<rect x="${left}" y="${y - 22}" width="${right - left}" height="30" rx="4" fill="#fef9c3" stroke="#a16207"/>`,
      );
      parts.push(`<text x="${(left + right) / 2}" y="${y - 2}" text-anchor="middle">${escapeHtml(step.note)}</text>`);
      return;
    }
    const [from, to] = [x(step.from), x(step.to)];
    const tip = from < to ? to - 2 : to + 2;
    parts.push(
      `<line x1="${from}" y1="${y}" x2="${tip}" y2="${y}" stroke="#1f2937" stroke-width="1.4"${step.reply ? ' stroke-dasharray="6 4"' : ''} marker-end="url(#arrow)"/>`,
    );
    parts.push(`<text x="${(from + to) / 2}" y="${y - 7}" text-anchor="middle">${escapeHtml(step.text)}</text>`);
  });
  return (
    `<svg role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} ${height}" style="max-width:${width}px;width:100%;height:auto" xmlns="http://www.w3.org/2000/svg" font-family="Helvetica,Arial,sans-serif" font-size="12" fill="#111827">` +
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f2937"/></marker></defs>' +
    `<title>${escapeHtml(title)}</title>${parts.join('')}</svg>`
  );
}

/** The sequence diagrams of the guides, by name. */
export const SEQUENCES = {
  'checkout-flow': {
    title: 'The checkout flow: the partner server, the customer, the hosted page and the webhook',
    participants: ['Customer', 'Partner server', 'Service', 'Hosted page'],
    steps: [
      { from: 'Customer', to: 'Partner server', text: 'Checkout' },
      { from: 'Partner server', to: 'Service', text: 'create payment session' },
      { from: 'Service', to: 'Partner server', text: 'id, redirect_url (pending)', reply: true },
      { from: 'Partner server', to: 'Customer', text: 'redirect to redirect_url', reply: true },
      { from: 'Customer', to: 'Hosted page', text: 'survey and card' },
      { note: 'processing (one-time payment) or authorized (hold)', over: ['Service', 'Hosted page'] },
      { from: 'Hosted page', to: 'Customer', text: 'redirect to success_url', reply: true },
      { from: 'Customer', to: 'Partner server', text: 'success_url: show "thank you"' },
      { note: 'Do not fulfil yet: wait for the webhook', over: ['Partner server'] },
      { from: 'Service', to: 'Partner server', text: 'payment_session_complete (signed)' },
      { from: 'Partner server', to: 'Service', text: '204, once v0 verified and deduped', reply: true },
      { note: 'captured: fulfil. authorized: capture when you ship', over: ['Partner server', 'Service'] },
      { from: 'Partner server', to: 'Service', text: 'capture (an authorization)' },
    ],
  },
  'token-flow': {
    title: 'A payment token: the redirect and the webhook race; either may come first',
    participants: ['Customer', 'Partner server', 'Service', 'Hosted page'],
    steps: [
      { from: 'Partner server', to: 'Service', text: 'create payment token' },
      { from: 'Service', to: 'Partner server', text: 'provision_token_request_id, redirect_url', reply: true },
      { from: 'Partner server', to: 'Customer', text: 'redirect to redirect_url', reply: true },
      { from: 'Customer', to: 'Hosted page', text: 'survey and card' },
      { from: 'Hosted page', to: 'Customer', text: 'redirect to success_url', reply: true },
      { from: 'Service', to: 'Partner server', text: 'payment_token.updated (signed)' },
      { note: 'The redirect may arrive before the webhook', over: ['Customer', 'Partner server'] },
      { from: 'Partner server', to: 'Service', text: 'retrieve provision request' },
      { from: 'Service', to: 'Partner server', text: 'payment_token (once provisioned)', reply: true },
      { from: 'Partner server', to: 'Service', text: 'create payment session with payment_token' },
      { from: 'Service', to: 'Partner server', text: '200, or 422 with next_action and redirect_url', reply: true },
    ],
  },
};
