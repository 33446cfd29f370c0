// The customer's submits on the hosted pages, as operations: each reads the form the page sent,
// decides what it leads to, and (when the customer is done) finishes the session or the provision
// request through the same actions as the /sandbox/v1/ helpers (customer-actions.ts), in one
// transaction. What to show is the route's: it renders each outcome as a page, or redirects.
// A page carries no API key: a session or request id is found in any channel, as a redirect_url is.
import { checkCustomerForm, type FormValues } from '../checkout/customer-form.js';
import { asksCard, asksSurvey } from '../checkout/setup-pages.js';
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { Session } from '../domain/types.js';
import type { IdSource } from '../ids.js';
import type { SandboxStore } from '../store/store.js';
import { finishCheckout, finishProvisionRequest } from './customer-actions.js';

/** The catalog eligibility of a session's items, shown beside them. */
export const itemEligibility = (store: SandboxStore, session: Session): Promise<ReadonlyMap<string, string | null>> =>
  store.catalog.eligibilityOf(
    session.channel,
    session.items.flatMap((item) => (item.sku ? [item.sku] : [])),
  );

const DECLINED = 'Your card was declined. Try another card.';

/** What a submit of the checkout page leads to. */
export type CheckoutSubmit =
  | { outcome: 'not_found' }
  /** The session timed out (canceled), or was paid already (another tab, the back button): nothing more is paid. */
  | { outcome: 'timed_out' | 'closed'; session: Session }
  /** The form again (400 when `errors` has any), with these values. */
  | {
      outcome: 'form';
      session: Session;
      eligibility: ReadonlyMap<string, string | null>;
      values: FormValues;
      errors: Record<string, string>;
    }
  /** The card to confirm before paying. */
  | { outcome: 'confirm'; session: Session; values: FormValues; last4: string }
  /** The flow ended (paid, or ineligible) at `url`. */
  | { outcome: 'finished'; session: Session; success: boolean; url: string };

/** The customer submits the checkout page of session `id` with `values`. */
export async function submitCheckout(
  store: SandboxStore,
  ids: IdSource,
  id: string,
  values: FormValues,
): Promise<CheckoutSubmit> {
  return store.transaction(async (): Promise<CheckoutSubmit> => {
    const session = await store.sessions.getForCustomer(id);
    if (!session) return { outcome: 'not_found' };
    if (session.status === 'canceled') return { outcome: 'timed_out', session };
    if (session.status !== 'pending') return { outcome: 'closed', session };
    const context = { channel: session.channel, now: await store.clock.now(session.channel), ids };
    const checked = checkCustomerForm(values, context.now, true);
    const form = async (shown: FormValues, errors: Record<string, string>): Promise<CheckoutSubmit> => ({
      outcome: 'form',
      session,
      eligibility: await itemEligibility(store, session),
      values: shown,
      errors,
    });
    if (Object.keys(checked.errors).length > 0) return form(values, checked.errors);
    if (!checked.eligible) {
      const { redirect_url: url } = await finishCheckout(store, context, session, { eligible: false });
      return { outcome: 'finished', session, success: false, url };
    }
    // Change the card: back to the form, the survey kept, the card left to type again.
    if (values.change_card === '1') {
      return form({ state: values.state ?? '', eligibility: values.eligibility ?? '' }, {});
    }
    const card = checked.card!;
    if (values.confirm !== '1') return { outcome: 'confirm', session, values, last4: card.last4 };
    if (card.outcome === 'declined') return form({ ...values, card_number: '' }, { card_number: DECLINED });
    const accepted = card.outcome === 'accepted';
    const paid = await finishCheckout(store, context, session, { eligible: true, card, accepted });
    return { outcome: 'finished', session, success: true, url: paid.redirect_url };
  });
}

/** What a submit of a provision request's page leads to. */
export type SetupSubmit =
  | { outcome: 'not_found' }
  /** The request no longer awaits the customer: its finished page. */
  | { outcome: 'done_before'; provision: ProvisionRequest }
  /** The form again, with its errors (400). */
  | { outcome: 'form'; provision: ProvisionRequest; values: FormValues; errors: Record<string, string> }
  /** The flow ended at `url`: canceled, or the customer's part done (success unless the letter was rejected). */
  | { outcome: 'finished'; provision: ProvisionRequest; success: boolean; url: string };

/** The customer submits the page of provision request `id` with `values` (the survey, the letter, the card). */
export async function submitSetup(
  store: SandboxStore,
  ids: IdSource,
  id: string,
  values: FormValues,
): Promise<SetupSubmit> {
  return store.transaction(async (): Promise<SetupSubmit> => {
    const provision = await store.provisionRequests.getForCustomer(id);
    if (!provision) return { outcome: 'not_found' };
    if (provision.status !== 'awaiting_customer') return { outcome: 'done_before', provision };
    const context = { channel: provision.channel, now: await store.clock.now(provision.channel), ids };
    const lmnSkus =
      provision.purpose === 'setup' ? await store.catalog.lmnSkus(provision.channel) : (provision.skus ?? []);
    if (values.action === 'cancel') {
      await finishProvisionRequest(store, context, provision, {
        cancel: true,
        eligible: true,
        lmnSkus,
        letter: 'pending',
      });
      return { outcome: 'finished', provision, success: false, url: provision.redirect_url! };
    }
    const checked = asksSurvey(provision)
      ? checkCustomerForm(values, context.now, asksCard(provision))
      : checkCustomerForm({ ...values, state: 'CA', eligibility: 'eligible' }, context.now, true);
    const letter = values.letter ?? 'approved';
    if (!['approved', 'pending', 'rejected'].includes(letter)) {
      checked.errors.letter = "Choose the clinician's decision.";
    }
    if (values.action !== undefined && values.action !== 'finish') checked.errors.action = 'Choose Save or Cancel.';
    if (Object.keys(checked.errors).length > 0) return { outcome: 'form', provision, values, errors: checked.errors };
    if (checked.card?.outcome === 'declined') {
      return { outcome: 'form', provision, values: { ...values, card_number: '' }, errors: { card_number: DECLINED } };
    }
    await finishProvisionRequest(store, context, provision, {
      cancel: false,
      eligible: checked.eligible,
      ...(checked.card ? { card: checked.card } : {}),
      lmnSkus,
      letter: letter as 'approved' | 'pending' | 'rejected',
    });
    const success = (provision.status as string) !== 'rejected';
    return { outcome: 'finished', provision, success, url: provision.redirect_url! };
  });
}
