// Checks a flow program's claims against the sandbox itself, so that a row cannot pass by printing
// the expected line: the session must really be captured for 3000 cents and refunded 1000.
import type { FlowResult } from './row.js';

export const CAPTURED = 3000;
export const REFUNDED = 1000;

/** Returns the session id once every claim holds; throws with what does not. `run` is the PARTNER_RUN the program was given, which it put in the session's metadata. */
export async function checkFlow(output: string, sandbox: { baseUrl: string; apiKey: string }, run: string): Promise<string> {
  const line = output.split('\n').reverse().find((l) => l.startsWith('PARTNER_RESULT '));
  if (!line) throw new Error(`the flow program printed no PARTNER_RESULT line. Its output:\n${output.slice(-3000)}`);
  const result = JSON.parse(line.slice('PARTNER_RESULT '.length)) as Partial<FlowResult>;
  const problems: string[] = [];
  if (typeof result.session_id !== 'string' || result.session_id === '') problems.push('no session_id');
  if (result.captured !== CAPTURED) problems.push(`captured is ${result.captured}, not ${CAPTURED}`);
  if (typeof result.refund_id !== 'string' || result.refund_id === '') problems.push('no refund_id');
  if (result.listed !== true) problems.push('the filtered list did not return the session');
  if (result.capture_error !== 'SessionCaptured') problems.push(`the second capture read ${JSON.stringify(result.capture_error)}, not SessionCaptured`);
  if (problems.length > 0) throw new Error(`the flow program's result is wrong: ${problems.join('; ')}\n${line}`);

  const headers = { 'x-service-api-key': sandbox.apiKey };
  const id = result.session_id!;
  const session = await (await fetch(`${sandbox.baseUrl}/payments/v1/payment_session/${encodeURIComponent(id)}`, { headers })).json();
  // The session is this run's own, not one another row made.
  if (session.metadata !== run) problems.push(`session ${id} is not this run's: its metadata is ${JSON.stringify(session.metadata)}, not ${JSON.stringify(run)}`);
  if (session.capture_amount !== CAPTURED) problems.push(`the sandbox says capture_amount ${session.capture_amount}, not ${CAPTURED}`);
  const query = new URLSearchParams({ search: id, summarize_refunds: 'true', kind: 'authorization' });
  const list = await (await fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions?${query}`, { headers })).json();
  const item = (list.payment_sessions ?? []).find((s: { id?: string }) => s.id === id);
  if (!item) problems.push(`the sandbox's list does not find session ${id}: ${JSON.stringify(list).slice(0, 300)}`);
  else if (item.refund_amount !== REFUNDED) problems.push(`the sandbox says refund_amount ${item.refund_amount}, not ${REFUNDED}`);
  if (problems.length > 0) throw new Error(`the sandbox disagrees with the flow program: ${problems.join('; ')}`);
  return id;
}
