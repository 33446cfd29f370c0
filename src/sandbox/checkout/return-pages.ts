// The return pages: a success_url and a failure_url that the sandbox serves itself, for a store that
// has no page of its own yet (the README's and the guides' walkthroughs end there). Each says what
// happened, from the session's or the provision token request's state, not from which of the two
// URLs was reached, and shows nothing a customer with the id could not see on the hosted pages:
// the id, the status and, for a session, the total.
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { Session, SessionStatus } from '../domain/types.js';
import { dollars } from './layout.js';
import { escapeHtml } from './page.js';
import { SITE_STYLE } from './site-style.js';

export type ReturnOutcome = 'success' | 'failure';

export const RETURN_PATHS: Record<ReturnOutcome, string> = { success: '/return/success', failure: '/return/failure' };

/** The URL to give create payment session as its success_url or failure_url. */
export const returnUrlTemplate = (origin: string, outcome: ReturnOutcome) =>
  `${origin}${RETURN_PATHS[outcome]}?payment_session_id={{payment_session_id}}`;

export interface ReturnPage {
  status: number;
  html: string;
}

interface Told {
  /** Whether the flow went the customer's way (the page's colour). */
  ok: boolean;
  title: string;
  text: string;
}

const SESSION_OUTCOMES: Record<SessionStatus, Told> = {
  pending: {
    ok: false,
    title: 'The payment was not made',
    text:
      'The customer left the checkout without paying, or answered that the purchase is not eligible. The ' +
      'session stays pending: its redirect_url opens the checkout again until the session is canceled.',
  },
  processing: {
    ok: true,
    title: 'The payment is submitted',
    text:
      'The customer paid; the service reviews the payment. The payment_session_complete webhook tells the ' +
      "store's server when it is captured or rejected.",
  },
  authorized: {
    ok: true,
    title: 'The payment is authorized',
    text:
      "A hold of the total is placed on the customer's card. The store's server captures it, or voids it, " +
      'before it expires.',
  },
  captured: { ok: true, title: 'The payment is captured', text: 'The customer paid, and the payment is captured.' },
  rejected: { ok: false, title: 'The payment was rejected', text: "The service's review declined the payment." },
  canceled: {
    ok: false,
    title: 'The checkout was canceled',
    text: 'The session was canceled before the customer paid: the checkout timed out.',
  },
  authorization_voided: {
    ok: false,
    title: 'The hold was voided',
    text: "The store's server released the hold without capturing it.",
  },
  authorization_expired: {
    ok: false,
    title: 'The hold expired',
    text: 'The hold was not captured in time, and expired.',
  },
};

const PROVISION_OUTCOMES: Record<ProvisionRequest['status'], Told> = {
  awaiting_customer: {
    ok: false,
    title: 'The setup is not finished',
    text: 'The customer left the page before saving a card. The request awaits the customer: its page opens again.',
  },
  awaiting_letter: {
    ok: true,
    title: 'The letter awaits the clinician',
    text:
      "The customer finished the page; the clinician's decision on the letter of medical necessity is still " +
      'to come.',
  },
  provisioned: {
    ok: true,
    title: 'The card is saved',
    text:
      'The payment token is ready: the payment_token.updated webhook carries it, and so does the provision ' +
      'token request.',
  },
  rejected: {
    ok: false,
    title: 'The card was not saved',
    text: 'The customer is not eligible, or the letter of medical necessity was rejected.',
  },
  canceled: { ok: false, title: 'The setup was canceled', text: 'The customer canceled the setup.' },
};

const URL_NAMES: Record<ReturnOutcome, string> = { success: 'success_url', failure: 'failure_url' };

/** What the banner says is not real: a payment's, a card's, or either when the page names neither. */
type Subject = 'payment' | 'card' | 'none';
const NOTHING_REAL: Record<Subject, string> = {
  payment: 'No real payment is made.',
  card: 'No real card is saved.',
  none: 'Nothing real is paid or saved.',
};

function returnPage(
  status: number,
  title: string,
  body: string,
  outcome: ReturnOutcome,
  subject: Subject = 'none',
): ReturnPage {
  return {
    status,
    html:
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
      'content="width=device-width, initial-scale=1">' +
      `<title>${escapeHtml(title)} · HSA/FSA checkout sandbox</title>${SITE_STYLE.element}</head><body>` +
      '<header class="top"><a class="brand" href="/">HSA/FSA checkout sandbox</a></header>' +
      `<main><p class="banner"><strong>Sandbox.</strong> This page stands in for your store's ` +
      `<code>${URL_NAMES[outcome]}</code>. ${NOTHING_REAL[subject]}</p>` +
      `<h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  };
}

const facts = (rows: Array<[string, string]>) =>
  `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('')}</dl>`;

function told(outcome: ReturnOutcome, subject: Subject, said: Told, rows: Array<[string, string]>): ReturnPage {
  return returnPage(
    200,
    said.title,
    `<div class="outcome ${said.ok ? 'ok' : 'ko'}" id="outcome"><p>${escapeHtml(said.text)}</p>${facts(rows)}</div>`,
    outcome,
    subject,
  );
}

export function sessionReturnPage(
  outcome: ReturnOutcome,
  session: Pick<Session, 'id' | 'status' | 'total_amount'>,
): ReturnPage {
  return told(outcome, 'payment', SESSION_OUTCOMES[session.status], [
    ['Payment session', `<code id="session-id">${escapeHtml(session.id)}</code>`],
    ['Status', `<code id="status">${escapeHtml(session.status)}</code>`],
    ['Total', escapeHtml(dollars(session.total_amount))],
  ]);
}

export function provisionReturnPage(
  outcome: ReturnOutcome,
  request: Pick<ProvisionRequest, 'id' | 'status'>,
): ReturnPage {
  return told(outcome, 'card', PROVISION_OUTCOMES[request.status], [
    ['Provision token request', `<code id="request-id">${escapeHtml(request.id)}</code>`],
    ['Status', `<code id="status">${escapeHtml(request.status)}</code>`],
  ]);
}

/** Opened without an id, from a hosted page or not: what the page is, and how to use it. */
export function noIdPage(outcome: ReturnOutcome, origin: string): ReturnPage {
  return returnPage(
    200,
    `The sandbox's ${outcome} page`,
    '<p>Give this address to a payment session as its ' +
      `<code>${URL_NAMES[outcome]}</code>, and the hosted checkout ends here with the session's id and status:</p>` +
      `<p><code>${escapeHtml(returnUrlTemplate(origin, outcome))}</code></p>` +
      `<p>A payment token's setup (create payment token) takes ` +
      `<code>${escapeHtml(origin + RETURN_PATHS[outcome])}</code>: ` +
      'its page finds the provision token request from the hosted page the customer comes from, ' +
      'or from <code>?provision_token_request_id=</code>.</p>',
    outcome,
  );
}

/** An id that is not one (not a UUID, or given twice): 400, said plainly. */
export const malformedIdPage = (outcome: ReturnOutcome, name: string) =>
  returnPage(
    400,
    'This is not an id',
    `<p>The <code>${escapeHtml(name)}</code> in this address is not a single UUID, as the sandbox's ids are.</p>`,
    outcome,
  );

/** An id that names nothing here (another sandbox's, or deleted by a reset): 404. */
export const unknownIdPage = (outcome: ReturnOutcome, what: string, id: string) =>
  returnPage(
    404,
    `No such ${what}`,
    `<p>This sandbox has no ${escapeHtml(what)} <code>${escapeHtml(id)}</code>: it may belong to another sandbox, ` +
      `or a reset deleted it.</p>`,
    outcome,
  );
