// Every page the sandbox renders for a person, pinned whole: the hosted checkout at each step, a
// token's setup for each purpose, the end of a framed flow, the refusals, the return pages and the
// index. A change to a page's markup, wording, fields or links shows as a diff of its file in
// tests/unit/__pages__/, to be read and committed with the change (vitest -u writes them). The
// files are .txt, not .html: Stryker's copy of the project rewrites the scripts of .html files
// (it adds // @ts-nocheck). The browser tests check the same pages in chromium, with axe-core;
// these see every character.
import { describe, expect, it } from 'vitest';
import { indexPage } from '../../src/sandbox/checkout/index-page.js';
import { endPage } from '../../src/sandbox/checkout/layout.js';
import { crossSitePage, staleFormPage } from '../../src/sandbox/checkout/refusal-pages.js';
import {
  malformedIdPage,
  noIdPage,
  provisionReturnPage,
  sessionReturnPage,
  unknownIdPage,
} from '../../src/sandbox/checkout/return-pages.js';
import { checkoutFormPage, closedPage, confirmPage, timedOutPage } from '../../src/sandbox/checkout/session-pages.js';
import { setupFinishedPage, setupFormPage } from '../../src/sandbox/checkout/setup-pages.js';
import type { ProvisionRequest } from '../../src/sandbox/domain/provisioning.js';
import type { Session, SessionStatus } from '../../src/sandbox/domain/types.js';
import { pendingSession } from '../support/domain-sessions.js';

const form = { action: '/checkout/c0ffee00-1111-4222-8333-444455556666', token: 'tok_<"&>' };
const answers = {
  state: 'CA',
  eligibility: 'eligible',
  card_number: '4242 4242 4242 4242',
  card_expiry: '12/34',
  card_cvc: '123',
};
const errors = {
  state: 'Choose your state of residence.',
  card_cvc: 'Enter the 3 or 4 digits on the back of the card.',
};

function session(status: SessionStatus = 'pending', request: Partial<Session['request']> = {}): Session {
  const made = pendingSession();
  return { ...made, status, request: { ...made.request, ...request } };
}
const provision = (purpose: ProvisionRequest['purpose'], needs: ProvisionRequest['needs'], skus?: string[]) =>
  ({
    id: '5e7a0b1c-2d3e-4f50-8a6b-7c8d9e0f1a2b',
    purpose,
    needs,
    status: 'awaiting_customer',
    use_iframe: false,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    ...(skus ? { skus } : {}),
    request: { customer_state: 'ny' },
  }) as unknown as ProvisionRequest;

const pages: Record<string, () => { status: number; html: string }> = {
  'checkout-form': () =>
    checkoutFormPage(
      session('pending', { customer_state: 'tx' as never }),
      new Map([['BPM-200', 'eligible']]),
      {},
      {},
      form,
    ),
  'checkout-form-errors': () =>
    checkoutFormPage(session(), new Map(), { ...answers, state: '', card_cvc: '1' }, errors, form, 400),
  'checkout-confirm': () => confirmPage(session(), answers, '4242', form),
  'checkout-timed-out': () => timedOutPage(session('canceled')),
  'checkout-closed-captured': () => closedPage(session('captured')),
  'setup-form': () => setupFormPage(provision('setup', []), {}, {}, form),
  'setup-form-errors': () =>
    setupFormPage(provision('setup', []), { ...answers, letter: 'pending' }, errors, form, 400),
  'update-survey': () =>
    setupFormPage(provision('update', ['survey'], ['BPM-200', 'TH-10']), { eligibility: 'ineligible' }, {}, form),
  'fix-card': () => setupFormPage(provision('fix', ['card']), {}, {}, form),
  'setup-finished': () =>
    setupFinishedPage({ ...provision('setup', []), status: 'provisioned' }, 'https://shop.example/ok?step=2&x=<y>'),
  'end-payment-success': () =>
    endPage(true, 'https://shop.example/thanks?</script><script>alert(1)</script>', 'payment'),
  'end-payment-failure': () => endPage(false, 'https://shop.example/failed', 'payment'),
  'end-setup-success': () => endPage(true, 'https://shop.example/ok', 'setup'),
  'end-setup-failure': () => endPage(false, 'https://shop.example/ko', 'setup'),
  'refused-cross-site': () => crossSitePage(),
  'refused-stale-form': () => staleFormPage('/checkout/setup/5e7a0b1c-2d3e-4f50-8a6b-7c8d9e0f1a2b?mode=iframe&x=1'),
  'return-session': () =>
    sessionReturnPage('success', {
      id: 'c0ffee00-1111-4222-8333-444455556666',
      status: 'authorized',
      total_amount: 7799,
    }),
  'return-session-failure': () =>
    sessionReturnPage('failure', { id: 'c0ffee00-1111-4222-8333-444455556666', status: 'pending', total_amount: 7799 }),
  'return-provision': () =>
    provisionReturnPage('failure', { id: '5e7a0b1c-2d3e-4f50-8a6b-7c8d9e0f1a2b', status: 'rejected' }),
  'return-no-id': () => noIdPage('success', 'http://127.0.0.1:4010'),
  'return-malformed-id': () => malformedIdPage('failure', 'payment_session_id'),
  'return-unknown-id': () => unknownIdPage('success', 'payment session', 'c0ffee00-1111-4222-8333-444455556666'),
  'index-with-docs': () => ({ status: 200, html: indexPage(true, 'http://127.0.0.1:4010') }),
  'index-without-docs': () => ({ status: 200, html: indexPage(false, 'https://sandbox.shop.example') }),
};

describe('every page, whole', () => {
  it.each(Object.keys(pages))('%s', async (name) => {
    const { status, html } = pages[name]!();
    const text = `<!-- status ${status} -->\n${html.replace(/></g, '>\n<')}\n`;
    await expect(text).toMatchFileSnapshot(`./__pages__/${name}.txt`);
  });
});
