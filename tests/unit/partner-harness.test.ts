// The partner matrix's own checks: a row passes only if its flow really happened and its verifier
// really verifies. Each check is tried here with a row that lies.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFlow } from '../../scripts/partners/flow-check.js';
import type { Row, RowContext, VerifierInput } from '../../scripts/partners/row.js';
import { checkVerifier } from '../../scripts/partners/verifier-check.js';

const SECRET = 'whsec_test';
const body = Buffer.from('{"id":"evt_1","event_type":"payment_session_complete","created_at":"2026-11-25T00:00:00Z","data":{"amount":3000}}');
const t = Math.floor(Date.now() / 1000);
const header = `t=${t},v0=${createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex')}`;

function rowWith(verify: (input: VerifierInput) => boolean): { row: Row; ctx: RowContext } {
  const ctx = { workDir: mkdtempSync(path.join(tmpdir(), 'partner-harness-')) } as RowContext;
  const row = { verify: async (_ctx: RowContext, input: VerifierInput) => ({ status: verify(input) ? 0 : 1, output: '' }) } as unknown as Row;
  return { row, ctx };
}

const honest = (input: VerifierInput) => {
  const [, ts, sig] = /^t=(\d+),v0=([0-9a-f]+)$/.exec(input.signatureHeader) ?? [];
  if (!ts || !sig) return false;
  return createHmac('sha256', input.secret).update(`${ts}.`).update(readFileSync(input.bodyFile)).digest('hex') === sig;
};

describe('the verifier check', () => {
  it('passes a verifier that checks the HMAC over the raw body', async () => {
    const { row, ctx } = rowWith(honest);
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).resolves.toBeUndefined();
  });

  it('fails a verifier that accepts everything, naming the forgeries it let through', async () => {
    const { row, ctx } = rowWith(() => true);
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(/accepted a body changed by one byte, the wrong secret, a header without v0/);
  });

  it('fails a verifier that ignores the body', async () => {
    const { row, ctx } = rowWith((input) => input.secret === SECRET && input.signatureHeader.includes('v0='));
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(/accepted a body changed by one byte$/);
  });

  it('fails a verifier that refuses a genuine delivery', async () => {
    const { row, ctx } = rowWith(() => false);
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(/refused a genuine delivery/);
  });
});

describe('the flow check', () => {
  const sandbox = { baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' };
  const claim = (result: object) => `creating…\nPARTNER_RESULT ${JSON.stringify(result)}\n`;
  const good = { session_id: 's1', captured: 3000, refund_id: 'r1', listed: true, capture_error: 'SessionCaptured' };

  it('fails a program that printed no result', async () => {
    await expect(checkFlow('done\n', sandbox)).rejects.toThrow(/no PARTNER_RESULT line/);
  });

  it.each([
    [{ ...good, captured: 5000 }, /captured is 5000, not 3000/],
    [{ ...good, listed: false }, /filtered list did not return the session/],
    [{ ...good, capture_error: 'ServerError' }, /read "ServerError", not SessionCaptured/],
    [{ ...good, refund_id: '' }, /no refund_id/],
  ])('fails a wrong claim before asking the sandbox: %j', async (result, message) => {
    await expect(checkFlow(claim(result), sandbox)).rejects.toThrow(message);
  });
});
