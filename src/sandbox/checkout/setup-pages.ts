// The page of a provision token request: token setup, an update's survey, or a 422's fix. The
// survey when the request asks for it, the card when it does, and the clinician's decision, which
// the sandbox lets the customer's tester choose.
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { FormValues } from './customer-form.js';
import {
  errorSummary,
  formStart,
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
  letter: 'Clinician',
};

export const asksSurvey = (request: ProvisionRequest) =>
  request.purpose === 'setup' || request.needs.includes('survey');
export const asksCard = (request: ProvisionRequest) => request.purpose === 'setup' || request.needs.includes('card');

export function setupFinishedPage(request: ProvisionRequest, redirectUrl: string): Page {
  return page(
    'This step is finished',
    `<p>This request is <strong>${escapeHtml(request.status)}</strong>.</p><p><a ` +
      `href="${escapeHtml(redirectUrl)}">Continue</a></p>`,
    200,
    'setup',
  );
}

export function setupFormPage(
  request: ProvisionRequest,
  values: FormValues,
  errors: Record<string, string>,
  form: FormTarget,
  status = 200,
): Page {
  const title =
    request.purpose === 'setup' ? 'Set up your HSA/FSA payment method' : 'Update your HSA/FSA payment method';
  // An update names the items it is for (their SKUs); a setup names none, and asks about the card's use.
  const items = request.skus?.length
    ? `<p>The items:</p><ul ` +
      `id="items">${request.skus.map((sku) => `<li><code>${escapeHtml(sku)}</code></li>`).join('')}</ul>`
    : '';
  const survey = asksSurvey(request)
    ? `<h2>Health survey</h2>` +
      selectField(
        'state',
        LABELS.state!,
        US_STATES,
        'state' in values ? values.state : request.request?.customer_state?.toUpperCase(),
        errors,
      ) +
      items +
      radioField(
        'eligibility',
        request.skus?.length
          ? 'Are these items for a medical condition you have, or one a clinician recommended?'
          : 'Will you use this card for a medical condition you have, or one a clinician recommended?',
        [
          [
            'eligible',
            request.skus?.length ? 'Yes, they treat or prevent a condition I have' : 'Yes, for a condition I have',
          ],
          ['ineligible', 'No, none of this applies: I am not eligible (ends the setup)'],
        ],
        values.eligibility,
        errors,
      ) +
      radioField(
        'letter',
        "The clinician's decision on a letter of medical necessity (sandbox)",
        [
          ['approved', 'Approve the letter now'],
          ['pending', 'Leave it pending (decide it later with the letter helper)'],
          ['rejected', 'Reject the letter'],
        ],
        values.letter ?? 'approved',
        errors,
      )
    : '';
  const card = asksCard(request)
    ? `<h2>HSA/FSA card</h2>` +
      textField('card_number', LABELS.card_number!, values, errors, 'inputmode="numeric" autocomplete="cc-number"') +
      textField('card_expiry', LABELS.card_expiry!, values, errors, 'autocomplete="cc-exp" placeholder="MM/YY"') +
      textField('card_cvc', LABELS.card_cvc!, values, errors, 'inputmode="numeric" autocomplete="cc-csc"')
    : '';
  const body =
    errorSummary(errors, LABELS) +
    `${formStart(form, ' novalidate')}${survey}${card}` +
    `<p><button type="submit" name="action" value="finish">Save</button> <button type="submit" name="action" ` +
    `value="cancel" class="secondary">Cancel</button></p></form>`;
  return page(title, body, status, 'setup');
}
