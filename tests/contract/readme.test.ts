// The curl walkthroughs, extracted from the documents that show them so that they cannot drift
// apart (the README's payment, the sandbox guide's subscription), run by bash against a sandbox
// process on its database file: twice, as a user who follows them again would, and each run must
// succeed and show what the text says it shows. Also the package guide's sections that a test reads.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

/** Where each walkthrough is: the README's payment, the sandbox guide's subscription, the testing guide's drill. */
const WALKTHROUGHS = {
  walkthrough: 'README.md',
  'subscription-walkthrough': 'docs/guides/sandbox.md',
  'drill-walkthrough': 'docs/guides/testing.md',
} as const;

/** The ```sh block that follows a marker such as `<!-- walkthrough … -->` in its document. */
function walkthroughBlock(marker: keyof typeof WALKTHROUGHS): string {
  const text = readFileSync(path.join(repoRoot, WALKTHROUGHS[marker]), 'utf8');
  const match = new RegExp(`<!-- ${marker}[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match?.[1]) throw new Error(`${WALKTHROUGHS[marker]} has no ${marker} block`);
  return match[1];
}

let dir: string;
let sandbox: SandboxProcess;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'readme-walkthrough-'));
  sandbox = await startSandboxProcess({ db: path.join(dir, 'sandbox.db') });
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (marker: keyof typeof WALKTHROUGHS) =>
  execFileSync('bash', ['-euo', 'pipefail', '-c', walkthroughBlock(marker)], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, S: sandbox.baseUrl },
  });
const answers = (output: string) =>
  output
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);

describe('the README walkthrough', () => {
  it('fits in ten lines, as the README says', () => {
    expect(walkthroughBlock('walkthrough').trimEnd().split('\n').length).toBeLessThanOrEqual(10);
  });

  it.each([1, 2])(
    'runs top to bottom (run %i) and ends on the return page, which says what happened',
    async (_run) => {
      const output = run('walkthrough');
      const [reset, created, completed, capture, refund] = answers(output);
      expect(reset).toMatchObject({ channel: 'dev' });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        redirect_url: `${sandbox.baseUrl}/checkout/${created!.id}`,
      });
      // The customer pays and is sent to the sandbox's success page, with the session's id in it.
      expect(completed).toEqual({
        status: 'authorized',
        redirect_url: `${sandbox.baseUrl}/return/success?payment_session_id=${created!.id}`,
      });
      expect(capture).toEqual({ id: expect.stringMatching(/^cap_\w+$/) });
      expect(refund).toEqual({ refund_id: expect.stringMatching(/^rf_\w+$/) });
      // The last line is the return page's heading, as the comment beside it says.
      expect(output.trim().split('\n').at(-1)).toBe('<h1>The payment is captured</h1>');
      // The page shows the session's id and status; the session is what the walkthrough made of it.
      const page = await (await fetch(`${sandbox.baseUrl}/return/success?payment_session_id=${created!.id}`)).text();
      expect(page).toContain(`<code id="session-id">${created!.id}</code>`);
      expect(page).toContain('<code id="status">captured</code>');
      const detail = await (
        await fetch(`${sandbox.baseUrl}/payments/v1/payment_session/${created!.id}`, {
          headers: { 'x-service-api-key': 'sandbox-dev-key' },
        })
      ).json();
      expect(detail).toMatchObject({ status: 'captured', capture_amount: 3999, status_summary: 'Partially Refunded' });
    },
    60_000,
  );
});

describe("the sandbox guide's subscription walkthrough", () => {
  it.each([1, 2])(
    'runs top to bottom (run %i): token, charge, expired card, fix, charge, survey, and leaves the clock as it was',
    async (_run) => {
      const output = run('subscription-walkthrough');
      const [
        reset,
        setup,
        completed,
        eligibility,
        charged,
        detail,
        clock,
        refused,
        fixed,
        chargedAgain,
        updated,
        resetAgain,
      ] = answers(output);
      // Each charge shows its HTTP status: 200, the 422 of the expired card, 200 after the fix.
      expect(output.match(/^HTTP \d+$/gm)).toEqual(['HTTP 200', 'HTTP 422', 'HTTP 200']);
      // The token charge needs no customer: the session is processing at once, as step 4 says.
      expect(detail).toMatchObject({ id: charged!.id, status: 'processing' });
      // The channel is left with its clock at the real time: a new session is not dated 32 days ahead.
      expect(resetAgain).toMatchObject({ channel: 'dev', payment_sessions: 2, payment_tokens: 1 });
      const after = await (
        await fetch(`${sandbox.baseUrl}/sandbox/v1/clock`, { headers: { 'x-service-api-key': 'sandbox-dev-key' } })
      ).json();
      expect(after).toMatchObject({ offset_seconds: 0 });
      expect(reset).toMatchObject({ channel: 'dev' });
      expect(setup!.redirect_url).toMatch(new RegExp(`/checkout/setup/${setup!.provision_token_request_id}$`));
      expect(completed).toMatchObject({ status: 'provisioned', payment_token: expect.stringMatching(/^ptok_/) });
      expect(eligibility).toMatchObject({
        eligibility_status: 'approved',
        items: expect.arrayContaining(['MSG-GUN-1']),
      });
      expect(charged).toEqual({ id: expect.any(String), redirect_url: expect.any(String) });
      expect(clock).toMatchObject({ offset_seconds: 2764800 });
      expect(refused).toEqual({
        next_action: 'UpdatePaymentMethod',
        redirect_url: expect.stringContaining('/checkout/setup/'),
      });
      expect(fixed).toMatchObject({ purpose: 'fix', status: 'provisioned', payment_token: completed!.payment_token });
      expect(chargedAgain).toEqual({ id: expect.any(String), redirect_url: expect.any(String) });
      expect(updated).toMatchObject({ next_action: 'HealthSurvey', provision_token_request_id: expect.any(String) });
    },
    60_000,
  );
});

describe("the testing guide's evolution drill", () => {
  it('runs as copied, defining all it uses, and each line prints what the comment under it shows', () => {
    const output = run('drill-walkthrough').trim().split('\n');
    // Each command prints one line, the body then the status.
    const printed = output
      .map((line) => /^(\{.*\}) (\d{3})$/.exec(line)!)
      .map(([, body, status]) => ({ body: JSON.parse(body!) as Record<string, any>, status }));
    expect(printed.map((p) => p.status)).toEqual(['200', '200', '200', '400', '200']);
    const [on, session, fault, voided, off] = printed.map((p) => p.body);
    expect(on).toEqual({ enabled: true, service_fee: 'number' });
    expect(session).toMatchObject({
      kind: 'added_later',
      status: 'added_later',
      status_summary: 'Added Later',
      service_fee: 0,
      added_later: { note: expect.any(String) },
    });
    expect(session!.order_items[0]).toMatchObject({ added_later: { note: expect.any(String) } });
    expect(fault).toEqual({ operation_id: 'voidPaymentSession', status: 400, error: 'AddedLater', remaining: 1 });
    expect(voided).toMatchObject({
      error: 'AddedLater',
      message: 'An injected sandbox fault: the operation answers AddedLater.',
    });
    expect(off).toEqual({ enabled: false, service_fee: 'number' });
    // The comment under each command shows its line, with "…" for what differs from run to run or is left out.
    const comments: string[] = [];
    let previousWasComment = false;
    for (const line of walkthroughBlock('drill-walkthrough').split('\n')) {
      const comment = /^#\s+(.*)$/.exec(line)?.[1];
      if (comment !== undefined && previousWasComment) comments[comments.length - 1] += comment;
      else if (comment !== undefined) comments.push(comment);
      previousWasComment = comment !== undefined;
    }
    const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = (comment: string) =>
      new RegExp(
        `^${comment
          .split(/\s*…\s*/)
          .map(escapeRegExp)
          .join('.*')}$`,
      );
    expect(comments).toHaveLength(output.length);
    for (const [i, line] of output.entries()) expect(line).toMatch(pattern(comments[i]!));
  }, 60_000);
});

describe("the package guide's sections", () => {
  const guide = readFileSync(path.join(repoRoot, 'docs', 'guides', 'package.md'), 'utf8');
  const section = (heading: string) => {
    const start = guide.indexOf(`\n## ${heading}\n`);
    if (start < 0) throw new Error(`docs/guides/package.md has no section ${heading}`);
    const end = guide.indexOf('\n## ', start + 1);
    return guide.slice(start, end < 0 ? undefined : end);
  };

  it('adds the sandbox to a project that installed the client with its peers only: the client stays a dependency', () => {
    const commands = section('The sandbox and the mock in your own repository')
      .split('\n')
      .filter((line) => line.startsWith('npm install'));
    expect(commands[0]).toBe('npm install --save-dev fastify@5 better-sqlite3@13 ajv@8 ajv-formats@3');
    // The tarball as a devDependency is offered only commented out, for a project that wants the sandbox alone.
    expect(commands.filter((line) => line.includes('$TARBALL'))).toEqual([]);
  });

  it('states the Node the package needs beside each install command', () => {
    for (const heading of ['Install it, and the quickstart', 'The sandbox and the mock in your own repository']) {
      const block = /```sh\n([\s\S]*?)```/.exec(section(heading))![1]!;
      expect({ heading, states: /Node 22\.14 or newer/.test(block) }).toEqual({ heading, states: true });
    }
    expect(section('Install it, and the quickstart')).toContain(
      'hsa-fsa-sandbox needs Node 22.14 or newer (this is Node v20.20.2)',
    );
  });

  it("explains npm 11's esbuild warning after the quickstart's install", () => {
    const text = section('Install it, and the quickstart').replace(/\s+/g, ' ');
    expect(text).toContain('install scripts not yet covered by allowScripts: esbuild@');
    expect(text).toContain('`npm install-scripts approve esbuild`');
  });
});
