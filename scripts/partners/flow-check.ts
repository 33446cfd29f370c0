// Checks a flow program's claims against the sandbox itself, so that a row cannot pass by printing
// the expected line: the session must really be captured for 3000 cents and refunded 1000. Under
// the evolution drill, the program must also have read what the later version sent as unknown: a
// void's code and the session's status_summary that the contract does not list, and service_fee
// as a number.
import type { FlowResult } from './row.js';

export const CAPTURED = 3000;
export const REFUNDED = 1000;
/** The code the harness makes the void answer under the drill (a fault armed on the drill's sandbox). */
export const UNLISTED_VOID_CODE = 'AddedLater';

/** What the program must have read: today's service, or the later version the drill plays. */
export type Service = 'today' | 'drill';

const EXPECTED: Record<Service, Pick<FlowResult, 'capture_error' | 'void_error' | 'void_error_known' | 'status_summary' | 'status_summary_known'>> = {
  today: { capture_error: 'SessionCaptured', void_error: 'SessionCaptured', void_error_known: true, status_summary: 'Partially Refunded', status_summary_known: true },
  // A refusal keeps its code under the drill; the void answers the armed fault's unlisted one.
  drill: { capture_error: 'SessionCaptured', void_error: UNLISTED_VOID_CODE, void_error_known: false, status_summary: 'Added Later', status_summary_known: false },
};

/** The flow's claims against what the service it ran against sent; the problems found. */
export function resultProblems(result: Partial<FlowResult>, service: Service): string[] {
  const problems: string[] = [];
  if (typeof result.session_id !== 'string' || result.session_id === '') problems.push('no session_id');
  if (result.captured !== CAPTURED) problems.push(`captured is ${result.captured}, not ${CAPTURED}`);
  if (typeof result.refund_id !== 'string' || result.refund_id === '') problems.push('no refund_id');
  if (result.listed !== true) problems.push('the filtered list did not return the session');
  for (const [field, expected] of Object.entries(EXPECTED[service]) as Array<[keyof FlowResult, unknown]>) {
    if (result[field] !== expected) problems.push(`${field} is ${JSON.stringify(result[field])}, not ${JSON.stringify(expected)}`);
  }
  // The sandbox charges no fee: "0.00" as today's string, 0 as the drill's number; read as a decimal either way.
  if (typeof result.service_fee !== 'string' || !/^-?\d+(\.\d+)?$/.test(result.service_fee) || Number(result.service_fee) !== 0) {
    problems.push(`service_fee is ${JSON.stringify(result.service_fee)}, not the fee 0 written as a decimal`);
  }
  return problems;
}

/** Returns the session id once every claim holds; throws with what does not. `run` is the PARTNER_RUN the program was given, which it put in the session's metadata. */
export async function checkFlow(output: string, sandbox: { baseUrl: string; apiKey: string }, run: string, service: Service = 'today'): Promise<string> {
  const line = output.split('\n').reverse().find((l) => l.startsWith('PARTNER_RESULT '));
  if (!line) throw new Error(`the flow program printed no PARTNER_RESULT line. Its output:\n${output.slice(-3000)}`);
  const result = JSON.parse(line.slice('PARTNER_RESULT '.length)) as Partial<FlowResult>;
  const problems = resultProblems(result, service);
  if (problems.length > 0) throw new Error(`the flow program's result is wrong (${service === 'drill' ? 'under the evolution drill' : 'today'}): ${problems.join('; ')}\n${line}`);

  const headers = { 'x-service-api-key': sandbox.apiKey };
  const id = result.session_id!;
  const session = await (await fetch(`${sandbox.baseUrl}/payments/v1/payment_session/${encodeURIComponent(id)}`, { headers })).json();
  // The session is this run's own, not one another row made.
  if (session.metadata !== run) problems.push(`session ${id} is not this run's: its metadata is ${JSON.stringify(session.metadata)}, not ${JSON.stringify(run)}`);
  if (session.capture_amount !== CAPTURED) problems.push(`the sandbox says capture_amount ${session.capture_amount}, not ${CAPTURED}`);
  if (session.status_summary !== result.status_summary) problems.push(`the sandbox says status_summary ${JSON.stringify(session.status_summary)}, the program read ${JSON.stringify(result.status_summary)}`);
  const query = new URLSearchParams({ search: id, summarize_refunds: 'true', kind: 'authorization' });
  const list = await (await fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions?${query}`, { headers })).json();
  const item = (list.payment_sessions ?? []).find((s: { id?: string }) => s.id === id);
  if (!item) problems.push(`the sandbox's list does not find session ${id}: ${JSON.stringify(list).slice(0, 300)}`);
  else if (item.refund_amount !== REFUNDED) problems.push(`the sandbox says refund_amount ${item.refund_amount}, not ${REFUNDED}`);
  if (problems.length > 0) throw new Error(`the sandbox disagrees with the flow program: ${problems.join('; ')}`);
  return id;
}
