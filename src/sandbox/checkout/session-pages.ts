// The hosted checkout of a payment session: the items and the total, the health survey (the state
// prefilled from customer_state), the card, a confirmation, then the session's success_url or
// failure_url. A canceled session shows the timed-out page.
import { resolveRedirect } from '../domain/create-session.js';
import type { Session } from '../domain/types.js';
import type { FormValues } from './customer-form.js';
import {
  dollars,
  errorSummary,
  formStart,
  hidden,
  page,
  radioField,
  selectField,
  textField,
  type FormTarget,
  type Page,
} from './layout.js';
import { escapeHtml } from './page.js';
import { US_STATES } from './us-states.js';

const LABELS: Record<string, string> = {
  state: 'State of residence',
  eligibility: 'Health question',
  card_number: 'Card number',
  card_expiry: 'Expiry (MM/YY)',
  card_cvc: 'Security code (CVC)',
};
const ELIGIBILITY_WORDS: Record<string, string> = {
  eligible: 'HSA/FSA eligible',
  eligible_with_lmn: 'eligible with a letter of medical necessity',
  ineligible: 'not eligible',
};

/** The order: each item with its quantity, price and HSA/FSA eligibility (from the catalog), and the total. */
function orderSummary(session: Session, eligibility: ReadonlyMap<string, string | null>): string {
  const rows = session.items
    .map((item) => {
      const e = item.sku !== undefined ? eligibility.get(item.sku) : undefined;
      return (
        `<tr><td>${escapeHtml(item.name)}` +
        `${e ? ` <small>(${escapeHtml(ELIGIBILITY_WORDS[e] ?? e)})</small>` : ''}</td>` +
        `<td>× ${item.quantity}</td><td>${dollars(item.price)}</td></tr>`
      );
    })
    .join('');
  const next = session.request.display_next_bill_info;
  const trial = next
    ? `<p id="next-bill">Free trial: then ${dollars(next.total_amount)} on ${escapeHtml(next.date)}.</p>`
    : '';
  return (
    `<table><caption>Your order</caption><thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th ` +
    `scope="col">Price</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p>Total: <strong id="total">${dollars(session.total_amount)}</strong></p>${trial}`
  );
}

export function timedOutPage(session: Session): Page {
  const back = resolveRedirect(session.request.failure_url, session.id);
  return page(
    'This checkout has timed out',
    `<p>This payment session is no longer open.</p><p><a href="${escapeHtml(back)}">Return to the store</a></p>`,
  );
}

/** A session no longer pending: paid (success_url), or ended another way (failure_url). */
export function closedPage(session: Session): Page {
  const paid = ['processing', 'captured', 'authorized'].includes(session.status);
  const back = resolveRedirect(paid ? session.request.success_url : session.request.failure_url, session.id);
  return page(
    paid ? 'This checkout is complete' : 'This checkout is closed',
    `<p>This payment session is <strong>${escapeHtml(session.status)}</strong>; nothing more to do here.</p>` +
      `<p><a href="${escapeHtml(back)}">Return to the store</a></p>`,
  );
}

/**
 * The way back to the shop without paying: the session's failure_url, the session left pending (the
 * customer may come back to its redirect_url until it times out). Out of any frame (_top).
 */
function backToStore(session: Session): string {
  return (
    `<p><a href="${escapeHtml(resolveRedirect(session.request.failure_url, session.id))}" target="_top">Back ` +
    `to the store without paying</a></p>`
  );
}

/** Step 1: the survey and the card, with any errors next to their fields. */
export function checkoutFormPage(
  session: Session,
  eligibility: ReadonlyMap<string, string | null>,
  values: FormValues,
  errors: Record<string, string>,
  form: FormTarget,
  status = 200,
): Page {
  // Prefilled from customer_state until the customer answers (or leaves it unanswered).
  const state = 'state' in values ? values.state : session.request.customer_state?.toUpperCase();
  const body =
    errorSummary(errors, LABELS) +
    orderSummary(session, eligibility) +
    formStart(form, ' novalidate') +
    `<h2>Health survey</h2>` +
    selectField('state', LABELS.state!, US_STATES, state, errors) +
    radioField(
      'eligibility',
      'Is this purchase for a medical condition you have, or one a clinician recommended?',
      [
        ['eligible', 'Yes, it treats or prevents a condition I have'],
        ['ineligible', 'No, none of this applies: I am not eligible (ends the checkout)'],
      ],
      values.eligibility,
      errors,
    ) +
    `<h2>HSA/FSA card</h2>` +
    textField('card_number', LABELS.card_number!, values, errors, 'inputmode="numeric" autocomplete="cc-number"') +
    textField('card_expiry', LABELS.card_expiry!, values, errors, 'autocomplete="cc-exp" placeholder="MM/YY"') +
    textField('card_cvc', LABELS.card_cvc!, values, errors, 'inputmode="numeric" autocomplete="cc-csc"') +
    `<p><button type="submit">Review and confirm</button></p></form>` +
    backToStore(session);
  return page('HSA/FSA checkout', body, status);
}

/** Step 2: the confirmation, which carries the answers on to the payment, or back to the form to change the card. */
export function confirmPage(session: Session, values: FormValues, last4: string, form: FormTarget): Page {
  const body =
    `<p>Pay <strong>${dollars(session.total_amount)}</strong> with the card ending ${escapeHtml(last4)}.</p>` +
    `${formStart(form)}${hidden(values, ['state', 'eligibility', 'card_number', 'card_expiry', 'card_cvc'])}` +
    `<input type="hidden" name="confirm" value="1"><p><button type="submit">Pay ` +
    `${dollars(session.total_amount)}</button> ` +
    `<button type="submit" name="change_card" value="1" class="secondary">Change card</button></p></form>` +
    backToStore(session);
  return page('Confirm your payment', body);
}
