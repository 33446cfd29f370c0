// The hosted pages a redirect_url leads to. The full customer flow comes later; for now each page
// shows where the customer is and points at the helpers that move the flow on.
import { resolveRedirect } from '../domain/create-session.js';
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { Session } from '../domain/types.js';
import { statusSummary } from '../domain/views.js';

export interface Page {
  status: number;
  html: string;
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function page(title: string, body: string, status = 200): Page {
  return {
    status,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  };
}

export function checkoutPage(session: Session | undefined, id: string): Page {
  if (!session) return page('Checkout not found', `<p>No payment session ${escapeHtml(id)}.</p>`, 404);
  if (session.status === 'canceled') {
    // The reference: a canceled checkout shows a timed-out page linking back to failure_url.
    const back = resolveRedirect(session.request.failure_url, session.id);
    return page('This checkout has timed out', `<p>This payment session is no longer open.</p><p><a href="${escapeHtml(back)}">Return to the store</a></p>`);
  }
  const items = session.items.map((item) => `<li>${escapeHtml(item.name)} × ${item.quantity} — ${dollars(item.price)}</li>`).join('');
  const next = session.status === 'pending'
    ? `<p>In the sandbox, complete this checkout with <code>POST /sandbox/v1/payment_sessions/${escapeHtml(session.id)}/complete_checkout</code>.</p>`
    : '';
  return page(
    'HSA/FSA checkout (sandbox)',
    `<p>Payment session <code>${escapeHtml(session.id)}</code>: <strong>${escapeHtml(session.status)}</strong> (${escapeHtml(statusSummary(session))}).</p>
     <ul>${items}</ul><p>Total: ${dollars(session.total_amount)}</p>${next}`,
  );
}

const NEEDS: Record<string, string> = { survey: 'take the health survey', card: 'enter your HSA/FSA card' };

/** The page of a provision token request: token setup, an update's survey, or a 422's fix. */
export function provisionPage(request: ProvisionRequest | undefined, id: string): Page {
  if (!request) return page('Page not found', `<p>No provision token request ${escapeHtml(id)}.</p>`, 404);
  const title = request.purpose === 'setup' ? 'Set up your HSA/FSA payment method (sandbox)' : 'Update your HSA/FSA payment method (sandbox)';
  if (request.status !== 'awaiting_customer') {
    return page(title, `<p>This step is finished (<strong>${escapeHtml(request.status)}</strong>).</p>`);
  }
  const steps = request.needs.map((need) => `<li>${escapeHtml(NEEDS[need] ?? need)}</li>`).join('');
  return page(
    title,
    `<p>To continue, please:</p><ol>${steps}</ol>
     <p>In the sandbox, finish this step with <code>POST /sandbox/v1/provision_requests/${escapeHtml(request.id)}/complete</code>.</p>`,
  );
}
