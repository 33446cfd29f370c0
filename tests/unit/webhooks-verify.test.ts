// verifyWebhook and verifyWebhookAsync (and both signers) against independent vectors, each
// rejection reason, and a property: any single-byte change to the body, the timestamp or the
// signature is rejected. Every test runs against both flavours.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  computeSignatureAsync,
  isEventType,
  isPaymentSessionComplete,
  parseSignatureHeader,
  signWebhook,
  signWebhookAsync,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookSignatureError,
  type SignedWebhook,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookSignatureFailure,
} from '../../src/webhooks/index.js';

interface Vector {
  name: string;
  secret: string;
  timestamp: number;
  body: string;
  v0: string;
}
const { vectors } = JSON.parse(readFileSync(new URL('./fixtures/signature-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

interface Flavour {
  name: string;
  verify: (options: VerifyWebhookOptions) => Promise<WebhookEvent>;
  sign: (payload: unknown, secret: string | readonly string[], timestamp: number) => Promise<SignedWebhook>;
  compute: (rawBody: string | Uint8Array, secret: string, timestamp: number) => Promise<string>;
}

// The sync functions, wrapped so that one suite awaits both; a sync throw becomes a rejection.
const flavours: Flavour[] = [
  {
    name: 'sync (node:crypto)',
    verify: async (o) => verifyWebhook(o),
    sign: async (...a) => signWebhook(...a),
    compute: async (...a) => computeSignature(...a),
  },
  { name: 'async (Web Crypto)', verify: verifyWebhookAsync, sign: signWebhookAsync, compute: computeSignatureAsync },
];

const secret = 'whsec_test_51Hq8';
const now = 1_763_700_000_000;
const t = now / 1000;
const event = {
  webhook_delivery_id: 'dlv_01HZX3Q6T2',
  event_type: 'dispute.created',
  data: { dispute_id: 'd', state: 'needs_response', amount: 1, currency: 'USD', created_at: '2026-11-20T10:00:00Z' },
};

async function failure(run: () => Promise<unknown>): Promise<WebhookSignatureFailure | 'passed'> {
  try {
    await run();
    return 'passed';
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
}

// Inputs are signed once with the sync signer; each flavour's signer is checked against the vectors.
const signed = signWebhook(event, secret, t);
const base: VerifyWebhookOptions = { rawBody: signed.body, signatureHeader: signed.signatureHeader, secret, now };
const signedWith = (payload: unknown): VerifyWebhookOptions => {
  const s = signWebhook(payload, secret, t);
  return { rawBody: s.body, signatureHeader: s.signatureHeader, secret, now };
};

describe.each(flavours)('$name', ({ verify, sign, compute }) => {
  describe('signature vectors computed with openssl', () => {
    it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
      expect(await compute(v.body, v.secret, v.timestamp)).toBe(v.v0);
      expect(await compute(Buffer.from(v.body, 'utf8'), v.secret, v.timestamp)).toBe(v.v0);
      expect((await sign(v.body, v.secret, v.timestamp)).signatureHeader).toBe(`t=${v.timestamp},v0=${v.v0}`);
      const header = `t=${v.timestamp},v0=${v.v0}`;
      for (const rawBody of [v.body, Buffer.from(v.body, 'utf8'), new TextEncoder().encode(v.body)]) {
        expect(await verify({ rawBody, signatureHeader: header, secret: v.secret, now: v.timestamp * 1000 })).toEqual(
          JSON.parse(v.body),
        );
      }
    });
  });

  describe('accepts', () => {
    it('a matching v0 among several (the service rotating its secret)', async () => {
      const { body, signatureHeader } = await sign(event, ['old-secret', secret], t);
      expect(signatureHeader.match(/v0=/g)).toHaveLength(2);
      expect((await verify({ rawBody: body, signatureHeader, secret, now })).event_type).toBe('dispute.created');
    });

    it('any of several receiver secrets (the partner rotating)', async () => {
      const { body, signatureHeader } = await sign(event, secret, t);
      expect(
        (await verify({ rawBody: body, signatureHeader, secret: ['new-secret', secret], now })).webhook_delivery_id,
      ).toBe('dlv_01HZX3Q6T2');
    });

    it('a signature in upper-case hex (the reference says hex, not which case)', async () => {
      const { body, signatureHeader } = await sign(event, secret, t);
      const upper = signatureHeader.replace(/v0=([0-9a-f]+)/, (_m, hex: string) => `v0=${hex.toUpperCase()}`);
      expect(upper).not.toBe(signatureHeader);
      expect((await verify({ rawBody: body, signatureHeader: upper, secret, now })).webhook_delivery_id).toBe(
        'dlv_01HZX3Q6T2',
      );
    });

    it('timestamps at the edge of the tolerance, past and future', async () => {
      const old = await sign(event, secret, t - 300);
      const ahead = await sign(event, secret, t + 300);
      expect(
        await failure(() => verify({ rawBody: old.body, signatureHeader: old.signatureHeader, secret, now })),
      ).toBe('passed');
      expect(
        await failure(() => verify({ rawBody: ahead.body, signatureHeader: ahead.signatureHeader, secret, now })),
      ).toBe('passed');
    });

    it('a t with leading zeros, signed over t exactly as received; the same t signed as a number is refused', async () => {
      const padded = `00${t}`; // 12 digits, the most a t may have
      expect(Number(padded)).toBe(t);
      const body = JSON.stringify(event);
      const overText = `t=${padded},v0=${computeSignature(body, secret, padded)}`;
      const overNumber = `t=${padded},v0=${computeSignature(body, secret, t)}`;
      expect(overText).not.toBe(overNumber);
      expect((await verify({ rawBody: body, signatureHeader: overText, secret, now })).webhook_delivery_id).toBe(
        'dlv_01HZX3Q6T2',
      );
      expect(await failure(() => verify({ rawBody: body, signatureHeader: overNumber, secret, now }))).toBe(
        'signature_mismatch',
      );
    });

    it('returns an event that narrows by event type', async () => {
      const verified = await verify(base);
      expect(isPaymentSessionComplete(verified)).toBe(false);
      expect(isEventType(verified, 'dispute.closed')).toBe(false);
      if (isEventType(verified, 'dispute.created')) {
        expect(verified.data.state).toBe('needs_response');
      } else {
        expect.unreachable('dispute.created expected');
      }
    });

    it('an event_type it does not know, such as the undocumented signed spelling of payment_session_complete', async () => {
      const complete = {
        webhook_delivery_id: 'dlv_9',
        event_type: 'payment_session.complete',
        data: { payment_id: 'p', status: 'captured' },
      };
      const verified = await verify(signedWith(complete));
      expect(isPaymentSessionComplete(verified) && verified.data.status).toBe('captured');
    });
  });

  describe('rejects, with its reason', () => {
    const cases: Array<[WebhookSignatureFailure, string, VerifyWebhookOptions]> = [
      ['missing_header', 'no header', { ...base, signatureHeader: undefined }],
      ['missing_header', 'empty header', { ...base, signatureHeader: '' }],
      ['malformed_header', 'no t', { ...base, signatureHeader: signed.signatureHeader.replace(/^t=\d+,/, '') }],
      ['malformed_header', 'two t', { ...base, signatureHeader: `t=${t},${signed.signatureHeader}` }],
      [
        'malformed_header',
        'non-numeric t',
        { ...base, signatureHeader: signed.signatureHeader.replace(/^t=\d+/, 't=abc') },
      ],
      ['malformed_header', 'short v0', { ...base, signatureHeader: `t=${t},v0=abc` }],
      ['malformed_header', 'garbage', { ...base, signatureHeader: 'sha256=deadbeef' }],
      ['no_signature', 'only other versions', { ...base, signatureHeader: `t=${t},v1=${'a'.repeat(64)}` }],
      ['signature_mismatch', 'wrong secret', { ...base, secret: 'other' }],
      [
        'signature_mismatch',
        're-serialized body',
        { ...base, rawBody: JSON.stringify(JSON.parse(signed.body), null, 2) },
      ],
      ['timestamp_too_old', 'replayed after 301 s', { ...base, now: now + 301_000 }],
      ['timestamp_in_future', 'clock 301 s behind', { ...base, now: now - 301_000 }],
      ['timestamp_too_old', 'a tighter tolerance', { ...base, now: now + 11_000, toleranceSeconds: 10 }],
      ['body_not_raw', 'a parsed object', { ...base, rawBody: JSON.parse(signed.body) as string }],
      ['secret_invalid', 'a trailing newline in the secret', { ...base, secret: `${secret}\n` }],
      ['secret_invalid', 'an empty secret', { ...base, secret: '' }],
      ['secret_invalid', 'no secret at all', { ...base, secret: [] }],
      ['payload_invalid', 'a signed body that is not JSON', signedWith('not json')],
      ['payload_invalid', 'a signed body without envelope', signedWith({ status: 'captured' })],
      [
        'payload_invalid',
        'an envelope without data',
        signedWith({ webhook_delivery_id: 'dlv_1', event_type: 'dispute.created' }),
      ],
    ];

    it.each(cases)('%s: %s', async (reason, _case, options) => {
      expect(await failure(() => verify(options))).toBe(reason);
    });

    it('gives actionable messages', async () => {
      await expect(verify({ ...base, rawBody: JSON.parse(signed.body) as string })).rejects.toThrow(/raw body/);
      await expect(verify({ ...base, secret: ` ${secret}` })).rejects.toThrow(/whitespace/);
    });

    it('refuses a tolerance that is not a number of seconds', async () => {
      await expect(verify({ ...base, toleranceSeconds: -1 })).rejects.toThrow(TypeError);
      await expect(verify({ ...base, toleranceSeconds: Number.NaN })).rejects.toThrow(/toleranceSeconds/);
    });

    it('checks the signature before trusting the timestamp', async () => {
      // A forged header with a fresh timestamp and a wrong signature is a mismatch, whatever its age.
      expect(await failure(() => verify({ ...base, signatureHeader: `t=${t + 10_000},v0=${'0'.repeat(64)}` }))).toBe(
        'signature_mismatch',
      );
    });
  });

  describe('property: a single-byte change is rejected', () => {
    const mutate = (text: string, index: number, byte: number) => {
      const bytes = Buffer.from(text, 'utf8');
      const at = index % bytes.length;
      if (bytes[at] === byte) return null; // not a change
      bytes[at] = byte;
      return bytes;
    };

    it('in the body', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.integer({ min: 0, max: 255 }), async (index, byte) => {
          const body = mutate(signed.body, index, byte);
          if (body === null) return;
          expect(await failure(() => verify({ ...base, rawBody: body }))).not.toBe('passed');
        }),
        { numRuns: 500 },
      );
    });

    it('in the timestamp or the signature (anywhere in the header)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.integer({ min: 0, max: 255 }), async (index, byte) => {
          const header = mutate(signed.signatureHeader, index, byte);
          if (header === null) return;
          // Hex is read in either case: a digit that only changes case is the same signature.
          if (header.toString('latin1').toLowerCase() === signed.signatureHeader.toLowerCase()) return;
          expect(await failure(() => verify({ ...base, signatureHeader: header.toString('latin1') }))).not.toBe(
            'passed',
          );
        }),
        { numRuns: 500 },
      );
    });
  });
});

describe('both flavours agree', () => {
  it('on any body, secret and timestamp', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array()),
        fc.string({ unit: 'binary', minLength: 1 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        async (body, key, timestamp) => {
          expect(await computeSignatureAsync(body, key, timestamp)).toBe(computeSignature(body, key, timestamp));
        },
      ),
      { numRuns: 300 },
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
