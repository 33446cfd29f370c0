// The rules of the hosted pages on their own: the customer's form, the form token, a page's exits
// and its security headers, and where a page lives. tests/sandbox/hosted-pages.test.ts drives them
// through the routes; these say each rule exactly.
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/sandbox/checkout/content-security.js';
import { checkCustomerForm } from '../../src/sandbox/checkout/customer-form.js';
import { formTokens } from '../../src/sandbox/checkout/form-token.js';
import { PAGE_STYLE } from '../../src/sandbox/checkout/inline-assets.js';
import { NO_EXITS, provisionExits, sessionExits } from '../../src/sandbox/checkout/page-exits.js';
import { checkoutUrl, provisionUrl } from '../../src/sandbox/checkout/urls.js';
import type { ProvisionRequest } from '../../src/sandbox/domain/provisioning.js';
import type { Session } from '../../src/sandbox/domain/types.js';
import { pendingSession } from '../support/domain-sessions.js';

const NOW = '2026-03-01T12:00:00.000Z';
const valid = {
  state: 'CA',
  eligibility: 'eligible',
  card_number: '4242 4242 4242 4242',
  card_expiry: '12/34',
  card_cvc: '123',
};

describe("the customer's form", () => {
  it("takes a valid survey and card: the card's brand, last 4, expiry month and outcome", () => {
    expect(checkCustomerForm(valid, NOW, true)).toEqual({
      errors: {},
      eligible: true,
      card: { brand: 'visa', last4: '4242', expires: '2034-12', outcome: 'accepted' },
    });
    expect(
      checkCustomerForm(
        { ...valid, card_number: '5555-5555-5555-4444', card_expiry: ' 01 / 27 ', card_cvc: ' 1234 ' },
        NOW,
        true,
      ).card,
    ).toEqual({ brand: 'card', last4: '4444', expires: '2027-01', outcome: 'accepted' });
    expect(checkCustomerForm({ ...valid, card_number: '4000000000000259' }, NOW, true).card?.outcome).toBe('review');
  });

  it('puts each problem next to its field, all at once', () => {
    expect(checkCustomerForm({}, NOW, true)).toEqual({
      errors: {
        state: 'Choose your state of residence.',
        eligibility: 'Answer the health question.',
        card_number: 'Enter your HSA/FSA card number.',
        card_expiry: 'Enter the expiry date as MM/YY.',
        card_cvc: 'Enter the 3 or 4 digits on the back of the card.',
      },
      eligible: true,
    });
  });

  it.each([
    ['a state that is none', { state: 'XX' }, 'state'],
    ['a state inherited from Object', { state: 'constructor' }, 'state'],
    ['another answer', { eligibility: 'maybe' }, 'eligibility'],
    ['a number that fails Luhn', { card_number: '4242424242424241' }, 'card_number'],
    ['11 digits', { card_number: '42424242424' }, 'card_number'],
    ['20 digits', { card_number: '42424242424242424242' }, 'card_number'],
    ['letters in the number', { card_number: '4242a24242424242' }, 'card_number'],
    ['month 13', { card_expiry: '13/30' }, 'card_expiry'],
    ['month 00', { card_expiry: '00/30' }, 'card_expiry'],
    ['a four-digit year', { card_expiry: '12/2034' }, 'card_expiry'],
    ['a letter before the month', { card_expiry: 'a12/34' }, 'card_expiry'],
    ['a third digit of year', { card_expiry: '12/345' }, 'card_expiry'],
    ['2 digits of CVC', { card_cvc: '12' }, 'card_cvc'],
    ['5 digits of CVC', { card_cvc: '12345' }, 'card_cvc'],
  ])('refuses %s, on its field alone', (_what, change, field) => {
    const checked = checkCustomerForm({ ...valid, ...change }, NOW, true);
    expect(Object.keys(checked.errors)).toEqual([field]);
    expect(checked.card).toBeUndefined();
  });

  it('says which number is wrong: missing, or not valid', () => {
    expect(checkCustomerForm({ ...valid, card_number: ' - ' }, NOW, true).errors).toEqual({
      card_number: 'Enter your HSA/FSA card number.',
    });
    expect(checkCustomerForm({ ...valid, card_number: '1234' }, NOW, true).errors).toEqual({
      card_number: 'This card number is not valid.',
    });
  });

  it('refuses a card past its month, and the expired test card whatever its date', () => {
    expect(checkCustomerForm({ ...valid, card_expiry: '02/26' }, NOW, true).errors).toEqual({
      card_expiry: 'This card has expired.',
    });
    expect(checkCustomerForm({ ...valid, card_expiry: '03/26' }, NOW, true).card?.expires).toBe('2026-03');
    expect(checkCustomerForm({ ...valid, card_number: '4000000000000069' }, NOW, true)).toEqual({
      errors: { card_expiry: 'This card has expired (test card 4000 0000 0000 0069).' },
      eligible: true,
    });
  });

  it('reads no card from an ineligible customer, or where the page asks none', () => {
    expect(checkCustomerForm({ state: 'CA', eligibility: 'ineligible', card_number: 'x' }, NOW, true)).toEqual({
      errors: {},
      eligible: false,
    });
    expect(checkCustomerForm({ state: 'CA', eligibility: 'eligible' }, NOW, false)).toEqual({
      errors: {},
      eligible: true,
    });
    expect(checkCustomerForm({ eligibility: 'ineligible' }, NOW, true)).toEqual({
      errors: { state: 'Choose your state of residence.' },
      eligible: false,
    });
  });
});

describe('the form token', () => {
  const tokens = formTokens(() => Buffer.alloc(32, 7));
  const token = tokens.issue('checkout', 'c0ffee');

  it('is the same on every render, and differs by purpose, id and secret', () => {
    expect(tokens.issue('checkout', 'c0ffee')).toBe(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(
      new Set([
        token,
        tokens.issue('setup', 'c0ffee'),
        tokens.issue('checkout', 'c0ffef'),
        formTokens(() => Buffer.alloc(32, 8)).issue('checkout', 'c0ffee'),
      ]).size,
    ).toBe(4);
  });

  it('is taken whole and only for its purpose and id', () => {
    expect(tokens.verify('checkout', 'c0ffee', token)).toBe(true);
    for (const other of [undefined, '', token.slice(0, 1), token.slice(0, -1), `${token}A`, token.toUpperCase()])
      expect(tokens.verify('checkout', 'c0ffee', other)).toBe(false);
    expect(tokens.verify('setup', 'c0ffee', token)).toBe(false);
    expect(tokens.verify('checkout', 'c0ffef', token)).toBe(false);
  });
});

function session(overrides: Partial<Session['request']>): Session {
  const made = pendingSession();
  return { ...made, request: { ...made.request, ...overrides } };
}
const provision = (overrides: Partial<ProvisionRequest>) =>
  ({
    id: 'pr-1',
    use_iframe: false,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    ...overrides,
  }) as ProvisionRequest;

describe("a page's exits", () => {
  it('are the origins of success_url and failure_url, once each, in that order, the session id put in', () => {
    expect(
      sessionExits(
        session({ success_url: 'https://a.example/{{payment_session_id}}', failure_url: 'http://b.example:8080/x' }),
      ),
    ).toEqual({ iframe: false, origins: ['https://a.example', 'http://b.example:8080'] });
    expect(
      sessionExits(
        session({ success_url: 'https://a.example/ok', failure_url: 'https://a.example/ko', use_iframe: true }),
      ),
    ).toEqual({ iframe: true, origins: ['https://a.example'] });
    expect(provisionExits(provision({ use_iframe: true }))).toEqual({
      iframe: true,
      origins: ['https://shop.example'],
    });
  });

  it('leave out a URL with no origin a header can name', () => {
    expect(provisionExits(provision({ success_url: 'javascript:alert(1)', failure_url: 'not a url' }))).toEqual({
      iframe: false,
      origins: [],
    });
    expect(
      provisionExits(provision({ success_url: 'https://a*b.example/', failure_url: 'ftp://files.example/' })),
    ).toEqual({ iframe: false, origins: [] });
    expect(sessionExits(session({ use_iframe: false })).iframe).toBe(false);
  });
});

describe("a page's security headers", () => {
  const bare = { status: 200, html: '', needs: { scripts: [], form: false } };
  const full = { status: 200, html: '', needs: { scripts: ["'sha256-a'", "'sha256-b'"], form: true } };
  const style = `style-src ${PAGE_STYLE.source}`;

  it('allow nothing a page without script or form does not need, and no frame', () => {
    expect(securityHeaders(bare, NO_EXITS)).toEqual({
      'content-security-policy': `default-src 'none'; ${style}; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`,
      'x-frame-options': 'DENY',
    });
  });

  it('outside iframe mode: its scripts, its form to itself and to where the flow ends, framed by no one', () => {
    expect(securityHeaders(full, { iframe: false, origins: ['https://a.example', 'https://b.example'] })).toEqual({
      'content-security-policy': `default-src 'none'; ${style}; script-src 'sha256-a' 'sha256-b'; form-action 'self' https://a.example https://b.example; base-uri 'none'; frame-ancestors 'none'`,
      'x-frame-options': 'DENY',
    });
  });

  it("in iframe mode: its form to itself only, framed by the partner's origins, and no X-Frame-Options, which cannot name them", () => {
    expect(securityHeaders(full, { iframe: true, origins: ['https://a.example', 'https://b.example'] })).toEqual({
      'content-security-policy': `default-src 'none'; ${style}; script-src 'sha256-a' 'sha256-b'; form-action 'self'; base-uri 'none'; frame-ancestors https://a.example https://b.example`,
    });
  });

  it('in iframe mode with no origin to name: framed by no one', () => {
    expect(securityHeaders(bare, { iframe: true, origins: [] })).toMatchObject({
      'x-frame-options': 'DENY',
      'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
    });
  });
});

describe('where a page lives', () => {
  it("a session's checkout, marked for a frame when created with use_iframe", () => {
    expect(checkoutUrl('http://127.0.0.1:4010', session({ use_iframe: false }))).toBe(
      'http://127.0.0.1:4010/checkout/c0ffee00-1111-4222-8333-444455556666',
    );
    expect(checkoutUrl('https://sb.example', session({ use_iframe: true }))).toBe(
      'https://sb.example/checkout/c0ffee00-1111-4222-8333-444455556666?mode=iframe',
    );
  });

  it("a provision token request's page, likewise", () => {
    expect(provisionUrl('https://sb.example', { id: 'pr-1', use_iframe: false })).toBe(
      'https://sb.example/checkout/setup/pr-1',
    );
    expect(provisionUrl('https://sb.example', { id: 'pr-1', use_iframe: true })).toBe(
      'https://sb.example/checkout/setup/pr-1?mode=iframe',
    );
  });
});
