// verifyWebhook and signWebhook against independent vectors, each rejection reason, and a
// property: any single-byte change to the body, the timestamp or the signature is rejected.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeSignature, isEventType, isPaymentSessionComplete, parseSignatureHeader, signWebhook, verifyWebhook,
  WebhookSignatureError, type WebhookSignatureFailure,
} from '../../src/webhooks/index.js';

interface Vector { name: string; secret: string; timestamp: number; body: string; v0: string }
const { vectors } = JSON.parse(readFileSync(new URL('./fixtures/signature-vectors.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

const secret = 'whsec_test_51Hq8';
const now = 1_763_700_000_000;
const t = now / 1000;
const event = { webhook_delivery_id: 'dlv_01HZX3Q6T2', event_type: 'dispute.created', data: { dispute_id: 'd', state: 'needs_response', amount: 1, currency: 'USD', created_at: '2026-11-20T10:00:00Z' } };

function failure(run: () => unknown): WebhookSignatureFailure | 'passed' {
  try {
    run();
    return 'passed';
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
}

describe('signature vectors computed with openssl', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    expect(computeSignature(v.body, v.secret, v.timestamp)).toBe(v.v0);
    expect(computeSignature(Buffer.from(v.body, 'utf8'), v.secret, v.timestamp)).toBe(v.v0);
    expect(signWebhook(v.body, v.secret, v.timestamp).signatureHeader).toBe(`t=${v.timestamp},v0=${v.v0}`);
    const verified = verifyWebhook({ rawBody: Buffer.from(v.body, 'utf8'), signatureHeader: `t=${v.timestamp},v0=${v.v0}`, secret: v.secret, now: v.timestamp * 1000 });
    expect(verified).toEqual(JSON.parse(v.body));
  });
});

describe('verifyWebhook accepts', () => {
  it('a matching v0 among several (the service rotating its secret)', () => {
    const { body, signatureHeader } = signWebhook(event, ['old-secret', secret], t);
    expect(signatureHeader.match(/v0=/g)).toHaveLength(2);
    expect(verifyWebhook({ rawBody: body, signatureHeader, secret, now }).event_type).toBe('dispute.created');
  });

  it('any of several receiver secrets (the partner rotating)', () => {
    const { body, signatureHeader } = signWebhook(event, secret, t);
    expect(verifyWebhook({ rawBody: body, signatureHeader, secret: ['new-secret', secret], now }).webhook_delivery_id).toBe('dlv_01HZX3Q6T2');
  });

  it('timestamps at the edge of the tolerance, past and future', () => {
    const old = signWebhook(event, secret, t - 300);
    const ahead = signWebhook(event, secret, t + 300);
    expect(failure(() => verifyWebhook({ rawBody: old.body, signatureHeader: old.signatureHeader, secret, now }))).toBe('passed');
    expect(failure(() => verifyWebhook({ rawBody: ahead.body, signatureHeader: ahead.signatureHeader, secret, now }))).toBe('passed');
  });

  it('returns an event that narrows by event type', () => {
    const { body, signatureHeader } = signWebhook(event, secret, t);
    const verified = verifyWebhook({ rawBody: body, signatureHeader, secret, now });
    expect(isPaymentSessionComplete(verified)).toBe(false);
    expect(isEventType(verified, 'dispute.closed')).toBe(false);
    if (isEventType(verified, 'dispute.created')) {
      expect(verified.data.state).toBe('needs_response');
    } else {
      expect.unreachable('dispute.created expected');
    }
  });

  it('an event_type it does not know, such as the undocumented signed spelling of payment_session_complete', () => {
    const complete = { webhook_delivery_id: 'dlv_9', event_type: 'payment_session.complete', data: { payment_id: 'p', status: 'captured' } };
    const { body, signatureHeader } = signWebhook(complete, secret, t);
    const verified = verifyWebhook({ rawBody: body, signatureHeader, secret, now });
    expect(isPaymentSessionComplete(verified) && verified.data.status).toBe('captured');
  });
});

describe('verifyWebhook rejects, with its reason', () => {
  const signed = signWebhook(event, secret, t);
  const cases: Array<[WebhookSignatureFailure, string, () => unknown]> = [
    ['missing_header', 'no header', () => verifyWebhook({ rawBody: signed.body, signatureHeader: undefined, secret, now })],
    ['missing_header', 'empty header', () => verifyWebhook({ rawBody: signed.body, signatureHeader: '', secret, now })],
    ['malformed_header', 'no t', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader.replace(/^t=\d+,/, ''), secret, now })],
    ['malformed_header', 'two t', () => verifyWebhook({ rawBody: signed.body, signatureHeader: `t=${t},${signed.signatureHeader}`, secret, now })],
    ['malformed_header', 'non-numeric t', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader.replace(/^t=\d+/, 't=abc'), secret, now })],
    ['malformed_header', 'short v0', () => verifyWebhook({ rawBody: signed.body, signatureHeader: `t=${t},v0=abc`, secret, now })],
    ['malformed_header', 'garbage', () => verifyWebhook({ rawBody: signed.body, signatureHeader: 'sha256=deadbeef', secret, now })],
    ['no_signature', 'only other versions', () => verifyWebhook({ rawBody: signed.body, signatureHeader: `t=${t},v1=${'a'.repeat(64)}`, secret, now })],
    ['signature_mismatch', 'wrong secret', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret: 'other', now })],
    ['signature_mismatch', 're-serialized body', () => verifyWebhook({ rawBody: JSON.stringify(JSON.parse(signed.body), null, 2), signatureHeader: signed.signatureHeader, secret, now })],
    ['timestamp_too_old', 'replayed after 301 s', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret, now: now + 301_000 })],
    ['timestamp_in_future', 'clock 301 s behind', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret, now: now - 301_000 })],
    ['timestamp_too_old', 'a tighter tolerance', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret, now: now + 11_000, toleranceSeconds: 10 })],
    ['body_not_raw', 'a parsed object', () => verifyWebhook({ rawBody: JSON.parse(signed.body) as string, signatureHeader: signed.signatureHeader, secret, now })],
    ['secret_invalid', 'a trailing newline in the secret', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret: `${secret}\n`, now })],
    ['secret_invalid', 'an empty secret', () => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret: '', now })],
    ['payload_invalid', 'a signed body that is not JSON', () => { const s = signWebhook('not json', secret, t); return verifyWebhook({ rawBody: s.body, signatureHeader: s.signatureHeader, secret, now }); }],
    ['payload_invalid', 'a signed body without envelope', () => { const s = signWebhook({ status: 'captured' }, secret, t); return verifyWebhook({ rawBody: s.body, signatureHeader: s.signatureHeader, secret, now }); }],
    ['payload_invalid', 'an envelope without data', () => { const s = signWebhook({ webhook_delivery_id: 'dlv_1', event_type: 'dispute.created' }, secret, t); return verifyWebhook({ rawBody: s.body, signatureHeader: s.signatureHeader, secret, now }); }],
  ];

  it.each(cases)('%s: %s', (reason, _case, run) => {
    expect(failure(run)).toBe(reason);
  });

  it('gives actionable messages', () => {
    expect(() => verifyWebhook({ rawBody: JSON.parse(signed.body) as string, signatureHeader: signed.signatureHeader, secret, now })).toThrow(/raw body/);
    expect(() => verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret: ` ${secret}`, now })).toThrow(/whitespace/);
  });

  it('checks the signature before trusting the timestamp', () => {
    // A forged header with a fresh timestamp and a wrong signature is a mismatch, whatever its age.
    expect(failure(() => verifyWebhook({ rawBody: signed.body, signatureHeader: `t=${t + 10_000},v0=${'0'.repeat(64)}`, secret, now }))).toBe('signature_mismatch');
  });
});

describe('property: a single-byte change is rejected', () => {
  const signedEvent = signWebhook(event, secret, t);

  const mutate = (text: string, index: number, byte: number) => {
    const bytes = Buffer.from(text, 'utf8');
    const at = index % bytes.length;
    if (bytes[at] === byte) return null; // not a change
    bytes[at] = byte;
    return bytes;
  };

  it('in the body', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 255 }), (index, byte) => {
        const body = mutate(signedEvent.body, index, byte);
        if (body === null) return;
        expect(failure(() => verifyWebhook({ rawBody: body, signatureHeader: signedEvent.signatureHeader, secret, now }))).not.toBe('passed');
      }),
      { numRuns: 500 },
    );
  });

  it('in the timestamp or the signature (anywhere in the header)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 255 }), (index, byte) => {
        const header = mutate(signedEvent.signatureHeader, index, byte);
        if (header === null) return;
        expect(failure(() => verifyWebhook({ rawBody: signedEvent.body, signatureHeader: header.toString('latin1'), secret, now }))).not.toBe('passed');
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseSignatureHeader', () => {
  it('keeps t as sent and every v0', () => {
    expect(parseSignatureHeader(`t=0001,v0=${'a'.repeat(64)},v1=zz,v0=${'b'.repeat(64)}`)).toEqual({
      timestamp: 1,
      timestampText: '0001',
      signatures: ['a'.repeat(64), 'b'.repeat(64)],
    });
  });
});
