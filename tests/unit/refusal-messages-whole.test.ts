// A refusal's message is the partner's whole explanation: each of these says what is wrong and what
// to do, to its last word. Their other tests match how a message starts; these hold it whole.
import { describe, expect, it } from 'vitest';
import { newEndpoint } from '../../src/sandbox/delivery/endpoints.js';
import { checkCreateRules } from '../../src/sandbox/domain/create-session.js';
import { upgradeSession } from '../../src/sandbox/domain/session-shape.js';
import type { CreateSessionRequest } from '../../src/sandbox/domain/types.js';
import { checkAllowedHost } from '../../src/sandbox/http/allowed-hosts.js';
import { parseLegacyWebhook } from '../../src/webhooks/index.js';

const messageOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('nothing was thrown');
};

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const request: CreateSessionRequest = {
  total_amount: 100,
  amount_details: noCharges,
  success_url: 'http://{{payment_session_id}}',
  failure_url: 'https://shop.example/failed',
  order_items: [{ name: 'Thermometer', quantity: 1, price: 100, amount_details: noCharges }],
};

describe('refusal messages, whole', () => {
  it('a receiver URL that is the sandbox itself', () => {
    const sandbox = { listening: [{ address: '127.0.0.1', port: 4010 }], localHosts: [] };
    const url = 'http://127.0.0.1:4010/hooks';
    expect(
      messageOf(() => newEndpoint({ id: 'we_1', channel: 'dev', url, now: '2026-11-28T00:00:00Z', sandbox })),
    ).toBe(
      'url points at the sandbox itself (127.0.0.1:4010): give the address of your own receiver; the sandbox does not ' +
        'deliver webhooks to itself.',
    );
  });

  it('a return URL that breaks once its placeholder is left empty', () => {
    const all = { authorization: true, tokenization: true };
    expect(messageOf(() => checkCreateRules(request, all, undefined))).toBe(
      'success_url is not a valid URL once {{payment_session_id}} is left empty, as it is when a charge with a ' +
        'payment_token is refused with a 422 and no session exists.',
    );
  });

  it('a stored session written by a newer sandbox', () => {
    expect(messageOf(() => upgradeSession({ shape_version: 99 }))).toBe(
      'A session document of shape 99 was written by a newer sandbox (this one knows 2).',
    );
  });

  it('a name of --allowed-hosts that is no host name', () => {
    expect(messageOf(() => checkAllowedHost('shop example'))).toBe(
      '--allowed-hosts: "shop example" is not a host name (letters, digits and hyphens between dots; a leading dot ' +
        'allows the subdomains too)',
    );
  });

  it("a legacy webhook's empty shared secret, and a body that is no known event", () => {
    expect(messageOf(() => parseLegacyWebhook('{"payment_token":"ptok_1"}', { sharedSecret: '' }))).toBe(
      'sharedSecret is empty (often an environment variable set to nothing): an absent x-service-api-key header ' +
        'would equal it.',
    );
    expect(messageOf(() => parseLegacyWebhook('{"hello":"world"}'))).toBe(
      'The legacy webhook body matches no known event (payment_session_complete, payment_token_updated, item ' +
        'eligibility, dispute).',
    );
  });
});
