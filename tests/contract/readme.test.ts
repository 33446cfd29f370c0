// The README's curl walkthrough, extracted from the README itself so that they cannot drift apart,
// run by bash against a sandbox process on its database file: twice, as a user who follows the
// README again would, and each run must succeed and show what the README says it shows.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contract.js';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process.js';

/** The ```sh block that follows a marker such as `<!-- walkthrough … -->` in the README. */
function readmeBlock(marker: string): string {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- ${marker}[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match?.[1]) throw new Error(`README.md has no ${marker} block`);
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

const run = (marker: string) =>
  execFileSync('bash', ['-euo', 'pipefail', '-c', readmeBlock(marker)], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, S: sandbox.baseUrl } });
const runWalkthrough = () => run('walkthrough');
const answers = (output: string) => output.trim().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>);

describe('the README walkthrough', () => {
  it.each([1, 2])('runs top to bottom (run %i) and shows what the README says', (_run) => {
    const output = runWalkthrough();
    expect(output).toMatch(/"redirect_url":"http:\/\/127\.0\.0\.1:\d+\/checkout\/[0-9a-f-]{36}"/);
    expect(output).toMatch(/"status":"authorized"/);
    expect(output).toMatch(/^\{"id":"cap_\w+"\}$/m);
    expect(output).toMatch(/^\{"refund_id":"rf_\w+"\}$/m);
    expect(output).toMatch(/"refund_amount":1000/);
    // The last answer is the outbox: the session's completion events, the hold then the capture.
    const outbox = JSON.parse(output.trim().split('\n').at(-1)!) as { events: Array<{ payload: { data: { status: string } } }> };
    expect(outbox.events.map((e) => e.payload.data.status)).toEqual(['authorized', 'captured']);
  }, 60_000);
});

describe('the README subscription walkthrough', () => {
  it.each([1, 2])('runs top to bottom (run %i): token, charge, expired card, fix, charge, survey, and leaves the clock as it was', async (_run) => {
    const output = run('subscription-walkthrough');
    const [reset, setup, completed, eligibility, charged, detail, clock, refused, fixed, chargedAgain, updated, resetAgain] = answers(output);
    // Each charge shows its HTTP status: 200, the 422 of the expired card, 200 after the fix.
    expect(output.match(/^HTTP \d+$/gm)).toEqual(['HTTP 200', 'HTTP 422', 'HTTP 200']);
    // The token charge needs no customer: the session is processing at once, as step 4 says.
    expect(detail).toMatchObject({ id: charged!.id, status: 'processing' });
    // The channel is left with its clock at the real time: a new session is not dated 32 days ahead.
    expect(resetAgain).toMatchObject({ channel: 'dev', payment_sessions: 2, payment_tokens: 1 });
    const after = await (await fetch(`${sandbox.baseUrl}/sandbox/v1/clock`, { headers: { 'x-service-api-key': 'sandbox-dev-key' } })).json();
    expect(after).toMatchObject({ offset_seconds: 0 });
    expect(reset).toMatchObject({ channel: 'dev' });
    expect(setup!.redirect_url).toMatch(new RegExp(`/checkout/setup/${setup!.provision_token_request_id}$`));
    expect(completed).toMatchObject({ status: 'provisioned', payment_token: expect.stringMatching(/^ptok_/) });
    expect(eligibility).toMatchObject({ eligibility_status: 'approved', items: expect.arrayContaining(['MSG-GUN-1']) });
    expect(charged).toEqual({ id: expect.any(String), redirect_url: expect.any(String) });
    expect(clock).toMatchObject({ offset_seconds: 2764800 });
    expect(refused).toEqual({ next_action: 'UpdatePaymentMethod', redirect_url: expect.stringContaining('/checkout/setup/') });
    expect(fixed).toMatchObject({ purpose: 'fix', status: 'provisioned', payment_token: completed!.payment_token });
    expect(chargedAgain).toEqual({ id: expect.any(String), redirect_url: expect.any(String) });
    expect(updated).toMatchObject({ next_action: 'HealthSurvey', provision_token_request_id: expect.any(String) });
  }, 60_000);
});

describe("the README's package sections", () => {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = (heading: string) => readme.slice(readme.indexOf(`\n## ${heading}\n`), readme.indexOf('\n## ', readme.indexOf(`\n## ${heading}\n`) + 1));

  it('adds the sandbox to a project that installed the client with its peers only: the client stays a dependency', () => {
    const commands = section('The sandbox and the mock in your own repository').split('\n').filter((line) => line.startsWith('npm install'));
    expect(commands[0]).toBe('npm install --save-dev fastify@5 better-sqlite3@13 ajv@8 ajv-formats@3');
    // The tarball as a devDependency is offered only commented out, for a project that wants the sandbox alone.
    expect(commands.filter((line) => line.includes('$TARBALL'))).toEqual([]);
  });

  it("explains npm 11's esbuild warning after the quickstart's install", () => {
    const text = section('The typed client and the webhook helpers').replace(/\s+/g, ' ');
    expect(text).toContain('install scripts not yet covered by allowScripts: esbuild@');
    expect(text).toContain('`npm install-scripts approve esbuild`');
  });
});
