// The partner matrix's own checks: a row passes only if its flow really happened and its verifier
// really verifies. Each check is tried here with a row that lies.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDefaultsFlow, checkFlow, defaultsResultProblems, resultProblems } from './flow-check.js';
import {
  additionsSection,
  defaultsNotRun,
  matrixTable,
  notRun,
  type DefaultsReport,
  type RowReport,
} from './report.js';
import type { Row, RowContext, VerifierInput } from './row.js';
import { checkUnknownEvent, checkVerifier } from './verifier-check.js';

const SECRET = 'whsec_test';
const body = Buffer.from(
  '{"id":"evt_1","event_type":"payment_session_complete","created_at":"2026-11-25T00:00:00Z","data":{"amount":3000}}',
);
const t = Math.floor(Date.now() / 1000);
const header = `t=${t},v0=${createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex')}`;

function rowWith(
  verify: (input: VerifierInput) => boolean,
  says = (input: VerifierInput) => `verified ${JSON.parse(readFileSync(input.bodyFile, 'utf8')).event_type}`,
): { row: Row; ctx: RowContext } {
  const ctx = { workDir: mkdtempSync(path.join(tmpdir(), 'partner-harness-')) } as RowContext;
  const row = {
    verify: async (_ctx: RowContext, input: VerifierInput) =>
      verify(input) ? { status: 0, output: says(input) } : { status: 1, output: 'signature does not verify' },
  } as unknown as Row;
  return { row, ctx };
}

/** A verifier as the guide writes them, with switches to break it the ways real ones break. */
const verifier =
  ({ window = true, everyV0 = true } = {}) =>
  (input: VerifierInput) => {
    const entries = input.signatureHeader.split(',').map((part) => part.split('='));
    const ts = entries.find(([key]) => key === 't')?.[1];
    const signatures = entries
      .filter(([key]) => key === 'v0')
      .map(([, value]) => value)
      .slice(0, everyV0 ? undefined : 1);
    if (!ts || signatures.length === 0) return false;
    if (window && Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
    const expected = createHmac('sha256', input.secret)
      .update(`${ts}.`)
      .update(readFileSync(input.bodyFile))
      .digest('hex');
    return signatures.includes(expected);
  };
const honest = verifier();

/**
 * A stand-in sandbox for the flow checks: its session s1 belongs to run-1 and says `session`
 * (capture_amount, status_summary); its list gives s1 with `refundAmount`. Started before the
 * describe block's tests, closed after them.
 */
function standInSandbox(
  session: { capture_amount: number; status_summary: string },
  refundAmount: number,
): { baseUrl: string } {
  const stand = { baseUrl: '' };
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const answer = request.url!.startsWith('/payments/v1/payment_session/s1')
        ? { id: 's1', metadata: 'run-1', ...session }
        : { payment_sessions: [{ id: 's1', refund_amount: refundAmount }] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stand.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return stand;
}

describe('the verifier check', () => {
  it('passes a verifier that checks the HMAC over the raw body', async () => {
    const { row, ctx } = rowWith(honest);
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).resolves.toBeUndefined();
  });

  it('fails a verifier that accepts everything, naming the forgeries it let through', async () => {
    const { row, ctx } = rowWith(() => true);
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /accepted a body changed by one byte, the wrong secret, a header without v0, a signature ten minutes old/,
    );
  });

  it('fails a verifier that ignores the body', async () => {
    const { row, ctx } = rowWith((input) => input.secret === SECRET && input.signatureHeader.includes('v0='));
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /accepted a body changed by one byte, a signature ten minutes old$/,
    );
  });

  it('fails a verifier without a time window: it accepts a replay', async () => {
    const { row, ctx } = rowWith(verifier({ window: false }));
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /accepted a signature ten minutes old$/,
    );
  });

  it('fails a verifier that reads only the first v0: it refuses a delivery signed during a rotation', async () => {
    const { row, ctx } = rowWith(verifier({ everyV0: false }));
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /refused a delivery signed during a rotation/,
    );
  });

  it('fails a verifier that does not say which event it verified', async () => {
    const { row, ctx } = rowWith(honest, () => 'verified undefined');
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /did not print "verified payment_session_complete"/,
    );
  });

  it('fails a verifier that refuses a genuine delivery', async () => {
    const { row, ctx } = rowWith(() => false);
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /refused a genuine delivery/,
    );
  });

  it('fails a verifier that ignores an event type of the contract', async () => {
    const { row, ctx } = rowWith(
      honest,
      (input) =>
        `verified x\nignored unknown event type ${JSON.parse(readFileSync(input.bodyFile, 'utf8')).event_type}\nverified payment_session_complete`,
    );
    await expect(checkVerifier(row, ctx, { body, signatureHeader: header }, SECRET)).rejects.toThrow(
      /ignored payment_session_complete, an event type of the contract/,
    );
  });
});

describe('the unknown event check (the evolution drill)', () => {
  const unknown = Buffer.from('{"webhook_delivery_id":"dlv_1","event_type":"added_later","data":{"object_id":"s1"}}');
  const signed = `t=${t},v0=${createHmac('sha256', SECRET).update(`${t}.`).update(unknown).digest('hex')}`;
  const ignoring = (input: VerifierInput) =>
    `verified added_later\nignored unknown event type ${JSON.parse(readFileSync(input.bodyFile, 'utf8')).event_type}`;

  it('passes a verifier that accepts the delivery and says it ignores it', async () => {
    const { row, ctx } = rowWith(honest, ignoring);
    await expect(
      checkUnknownEvent(row, ctx, { body: unknown, signatureHeader: signed }, SECRET),
    ).resolves.toBeUndefined();
  });

  it('fails a verifier that refuses it (a receiver would answer an error, and be retried for 7 days)', async () => {
    const { row, ctx } = rowWith(() => false);
    await expect(checkUnknownEvent(row, ctx, { body: unknown, signatureHeader: signed }, SECRET)).rejects.toThrow(
      /refused a genuine delivery of the unknown event type added_later/,
    );
  });

  it('fails a verifier that accepts it without saying that it ignores it', async () => {
    const { row, ctx } = rowWith(honest);
    await expect(checkUnknownEvent(row, ctx, { body: unknown, signatureHeader: signed }, SECRET)).rejects.toThrow(
      /did not print "ignored unknown event type added_later"/,
    );
  });
});

describe('the flow check', () => {
  const sandbox = { baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' };
  const claim = (result: object) => `creating…\nPARTNER_RESULT ${JSON.stringify(result)}\n`;
  const good = {
    session_id: 's1',
    captured: 3000,
    refund_id: 'r1',
    listed: true,
    capture_error: 'SessionCaptured',
    void_error: 'SessionCaptured',
    void_error_known: true,
    status_summary: 'Partially Refunded',
    status_summary_known: true,
    service_fee: '0.00',
  };
  // What a program reads from the later version the evolution drill plays.
  const drilled = {
    ...good,
    void_error: 'AddedLater',
    void_error_known: false,
    status_summary: 'Added Later',
    status_summary_known: false,
    service_fee: '0',
  };

  it('fails a program that printed no result', async () => {
    await expect(checkFlow('done\n', sandbox, 'run-1')).rejects.toThrow(/no PARTNER_RESULT line/);
  });

  it.each([
    [{ ...good, captured: 5000 }, /captured is 5000, not 3000/],
    [{ ...good, listed: false }, /filtered list did not return the session/],
    [{ ...good, capture_error: 'ServerError' }, /capture_error is "ServerError", not "SessionCaptured"/],
    [{ ...good, refund_id: '' }, /no refund_id/],
    [
      { ...good, void_error: 'AddedLater', void_error_known: false },
      /void_error is "AddedLater", not "SessionCaptured"/,
    ],
    [{ ...good, void_error_known: false }, /void_error_known is false, not true/],
    [{ ...good, status_summary_known: false }, /status_summary_known is false, not true/],
    [{ ...good, service_fee: '0.01' }, /service_fee is "0.01", not the fee 0/],
    [{ ...good, service_fee: 0 }, /service_fee is 0, not the fee 0 written as a decimal/],
    [{ ...good, service_fee: '$0' }, /service_fee is "\$0"/],
  ])('fails a wrong claim before asking the sandbox: %j', async (result, message) => {
    await expect(checkFlow(claim(result), sandbox, 'run-1')).rejects.toThrow(message);
  });

  it.each([
    [
      { ...drilled, void_error: 'SessionCaptured', void_error_known: true },
      /void_error is "SessionCaptured", not "AddedLater"/,
    ],
    [{ ...drilled, void_error_known: true }, /void_error_known is true, not false/],
    [{ ...drilled, status_summary: 'Partially Refunded' }, /status_summary is "Partially Refunded", not "Added Later"/],
    [{ ...drilled, status_summary_known: true }, /status_summary_known is true, not false/],
    [{ ...drilled, capture_error: 'AddedLater' }, /capture_error is "AddedLater", not "SessionCaptured"/],
    [good, /under the evolution drill/],
  ])(
    "under the drill, fails a program that read today's service or called the unknown known: %j",
    async (result, message) => {
      await expect(checkFlow(claim(result), sandbox, 'run-1', 'drill')).rejects.toThrow(message);
    },
  );

  it('takes a fee written either way, as the drill and today send it', () => {
    for (const fee of ['0', '0.00', '0.0', '-0'])
      expect(resultProblems({ ...good, service_fee: fee }, 'today')).toEqual([]);
    expect(resultProblems(drilled, 'drill')).toEqual([]);
  });

  describe('against what the sandbox says', () => {
    // A stand-in sandbox whose session s1 belongs to run-1, captured 5000 (not 3000), refunded 0.
    const stand = standInSandbox({ capture_amount: 5000, status_summary: 'Partially Refunded' }, 0);
    const baseUrl = () => stand.baseUrl;

    it('fails a program whose claims the sandbox does not bear out', async () => {
      await expect(checkFlow(claim(good), { baseUrl: baseUrl(), apiKey: 'k' }, 'run-1')).rejects.toThrow(
        /capture_amount 5000, not 3000; the sandbox says refund_amount 0, not 1000/,
      );
    });

    it("fails a program that reports another run's session", async () => {
      await expect(checkFlow(claim(good), { baseUrl: baseUrl(), apiKey: 'k' }, 'run-2')).rejects.toThrow(
        /session s1 is not this run's: its metadata is "run-1", not "run-2"/,
      );
    });
  });
});

describe("the defaults flow check (a client generated with the generator's defaults)", () => {
  const sandbox = { baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' };
  const claim = (result: object) => `creating…\nPARTNER_DEFAULTS_RESULT ${JSON.stringify(result)}\n`;
  const good = {
    session_id: 's1',
    captured: 3000,
    refund_id: 'r1',
    listed: true,
    capture_error: 'SessionCaptured',
    status_summary: 'Partially Refunded',
    service_fee: '0.00',
  };
  const drilled = { ...good, status_summary: 'Added Later', service_fee: '0.0' };

  it('fails a program that printed no defaults result, even with a PARTNER_RESULT line', async () => {
    await expect(checkDefaultsFlow(`PARTNER_RESULT ${JSON.stringify(good)}\n`, sandbox, 'run-1')).rejects.toThrow(
      /no PARTNER_DEFAULTS_RESULT line/,
    );
  });

  it.each([
    [{ ...good, session_id: '' }, /no session_id/],
    [{ ...good, captured: null }, /captured is null, not 3000/],
    [{ ...good, refund_id: undefined }, /no refund_id/],
    [{ ...good, listed: 'yes' }, /filtered list did not return the session/],
    [{ ...good, capture_error: 'AddedLater' }, /capture_error is "AddedLater", not "SessionCaptured"/],
    [{ ...good, status_summary: 'Added Later' }, /status_summary is "Added Later", not "Partially Refunded"/],
    [{ ...good, service_fee: null }, /service_fee is null, not the fee 0 written as a decimal/],
  ])('fails a wrong claim before asking the sandbox: %j', async (result, message) => {
    await expect(checkDefaultsFlow(claim(result), sandbox, 'run-1')).rejects.toThrow(message);
    await expect(checkDefaultsFlow(claim(result), sandbox, 'run-1')).rejects.toThrow(
      /the defaults flow's result is wrong \(today\)/,
    );
  });

  it("under the drill, wants the summary as the later version sent it, and the capture's code as today", async () => {
    await expect(checkDefaultsFlow(claim(good), sandbox, 'run-1', 'drill')).rejects.toThrow(
      /under the evolution drill\): status_summary is "Partially Refunded", not "Added Later"/,
    );
    expect(defaultsResultProblems({ ...drilled, capture_error: 'AddedLater' }, 'drill')).toEqual([
      'capture_error is "AddedLater", not "SessionCaptured"',
    ]);
  });

  it('asks nothing about the void or known values, and takes the fee written either way', () => {
    expect(defaultsResultProblems(good, 'today')).toEqual([]);
    expect(defaultsResultProblems(drilled, 'drill')).toEqual([]);
    for (const fee of ['0', '0.00', '0.0'])
      expect(defaultsResultProblems({ ...good, service_fee: fee }, 'today')).toEqual([]);
    // The customized flow's check still asks for the void.
    expect(resultProblems(good, 'today')).toContain('void_error is undefined, not "SessionCaptured"');
  });

  describe('against what the sandbox says', () => {
    const stand = standInSandbox({ capture_amount: 3000, status_summary: 'Refunded' }, 1000);
    const baseUrl = () => stand.baseUrl;

    it('fails a program whose summary the sandbox does not bear out, and passes one it does', async () => {
      await expect(checkDefaultsFlow(claim(good), { baseUrl: baseUrl(), apiKey: 'k' }, 'run-1')).rejects.toThrow(
        /the sandbox disagrees with the flow program: the sandbox says status_summary "Refunded", the program read "Partially Refunded"$/,
      );
      await expect(checkDefaultsFlow(claim(good), { baseUrl: baseUrl(), apiKey: 'k' }, 'run-2')).rejects.toThrow(
        /session s1 is not this run's/,
      );
    });
  });
});

describe("the matrix table's Defaults column", () => {
  const row = (defaults?: DefaultsReport): RowReport => ({
    id: 'x',
    language: 'X',
    generator: 'gen',
    version: '1',
    document: '3.0',
    warnings: [],
    steps: notRun(),
    passed: true,
    defaults,
  });
  const ok = (seconds: number) => ({ ok: true, seconds });
  const defaults = (steps: Partial<DefaultsReport['steps']>, additions: string[] = []): DefaultsReport => ({
    additions,
    warnings: [],
    steps: { ...defaultsNotRun(), ...steps },
    passed: true,
  });
  const cellOf = (report: RowReport) => matrixTable([report]).split('\n')[2]!.split(' | ').at(-4);

  it("says – for a row without a defaults client, and ok with both flows' times when all three steps passed", () => {
    expect(matrixTable([row()]).split('\n')[0]).toContain('| Drill | Defaults | Notes | Session type |');
    expect(cellOf(row())).toBe('–');
    expect(cellOf(row(defaults({ build: ok(9), today: ok(2.4), drill: ok(3.6) })))).toBe('ok (today 2 s, drill 4 s)');
  });

  it('names the first step that failed or did not run', () => {
    expect(cellOf(row(defaults({ build: { ok: false, seconds: 1, error: 'e' } })))).toBe('FAILED (build)');
    expect(cellOf(row(defaults({ build: ok(1), today: ok(1) })))).toBe('FAILED (drill)');
    expect(cellOf(row(defaults({ build: ok(1), today: { ok: false, seconds: 1 }, drill: ok(1) })))).toBe(
      'FAILED (today)',
    );
  });

  it("lists below the table what each row adds to its generator's defaults, or that it adds nothing", () => {
    expect(additionsSection([row()])).toBe('');
    const section = additionsSection([
      row(defaults({}, ["packageName=p: the partner's package", "this machine's toolchain: Maven"])),
      { ...row(defaults({})), language: 'Y' },
      row(),
    ]);
    expect(section).toBe(
      [
        "What each row adds to its generator's defaults (the Defaults column):",
        '',
        '- X, gen:',
        "  - packageName=p: the partner's package",
        "  - this machine's toolchain: Maven",
        '- Y, gen: nothing: the generator as installed.',
      ].join('\n'),
    );
  });
});
