// The hosted checkout page a redirect_url leads to. The full customer flow comes later; for now the
// page shows the session and points at the helpers that complete it.
import type { Session } from '../domain/types.js';
import { statusSummary } from '../domain/views.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function checkoutPage(session: Session | undefined, id: string): { status: number; html: string } {
  if (!session) {
    return { status: 404, html: page('Checkout not found', `<p>No payment session ${escape(id)}.</p>`) };
  }
  const items = session.items
    .map((item) => `<li>${escape(item.name)} × ${item.quantity} — ${dollars(item.price)}</li>`)
    .join('');
  return {
    status: 200,
    html: page(
      'HSA/FSA checkout (sandbox)',
      `<p>Payment session <code>${escape(session.id)}</code>: <strong>${escape(session.status)}</strong> (${escape(statusSummary(session))}).</p>
       <ul>${items}</ul>
       <p>Total: ${dollars(session.total_amount)}</p>
       <p>In the sandbox, complete this checkout with
       <code>POST /sandbox/v1/payment_sessions/${escape(session.id)}/complete_checkout</code>.</p>`,
    ),
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}
