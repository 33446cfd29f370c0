// Checks a flow program's claims against the sandbox itself, so that a row cannot pass by printing
// the expected line: the session must really be captured for 3000 cents and refunded 1000. Under
// the evolution drill, the program must also have read what the later version sent as unknown: a
// void's code and the session's status_summary that the contract does not list, and service_fee
// as a number. A defaults flow (a client generated with the generator's defaults) is checked the
// same way, on the claims it makes.
import type { DefaultsFlowResult, FlowResult } from './row.js';

export const CAPTURED = 3000;
export const REFUNDED = 1000;
/** The code the harness makes the void answer under the drill (a fault armed on the drill's sandbox). */
export const UNLISTED_VOID_CODE = 'AddedLater';

/** What the program must have read: today's service, or the later version the drill plays. */
export type Service = 'today' | 'drill';

const EXPECTED: Record<
  Service,
  Pick<FlowResult, 'capture_error' | 'void_error' | 'void_error_known' | 'status_summary' | 'status_summary_known'>
> = {
  today: {
    capture_error: 'SessionCaptured',
    void_error: 'SessionCaptured',
    void_error_known: true,
    status_summary: 'Partially Refunded',
    status_summary_known: true,
  },
  // A refusal keeps its code under the drill; the void answers the armed fault's unlisted one.
  drill: {
    capture_error: 'SessionCaptured',
    void_error: UNLISTED_VOID_CODE,
    void_error_known: false,
    status_summary: 'Added Later',
    status_summary_known: false,
  },
};

/** The claims every flow makes, its customized one and its defaults one alike: the problems found. */
function sharedProblems(result: Partial<DefaultsFlowResult>): string[] {
  const problems: string[] = [];
  if (typeof result.session_id !== 'string' || result.session_id === '') problems.push('no session_id');
  if (result.captured !== CAPTURED) problems.push(`captured is ${result.captured}, not ${CAPTURED}`);
  if (typeof result.refund_id !== 'string' || result.refund_id === '') problems.push('no refund_id');
  if (result.listed !== true) problems.push('the filtered list did not return the session');
  return problems;
}

/** Each field that must equal what the service sent. */
function expectedProblems<T>(result: Partial<T>, expected: Partial<T>): string[] {
  return (Object.entries(expected) as Array<[keyof T, unknown]>)
    .filter(([field, value]) => result[field] !== value)
    .map(([field, value]) => `${String(field)} is ${JSON.stringify(result[field])}, not ${JSON.stringify(value)}`);
}

// The sandbox charges no fee: "0.00" as today's string, 0 as the drill's number; read as a decimal either way.
function feeProblems(fee: unknown): string[] {
  if (typeof fee === 'string' && /^-?\d+(\.\d+)?$/.test(fee) && Number(fee) === 0) return [];
  return [`service_fee is ${JSON.stringify(fee)}, not the fee 0 written as a decimal`];
}

/** The flow's claims against what the service it ran against sent; the problems found. */
export function resultProblems(result: Partial<FlowResult>, service: Service): string[] {
  return [
    ...sharedProblems(result),
    ...expectedProblems(result, EXPECTED[service]),
    ...feeProblems(result.service_fee),
  ];
}

/**
 * The defaults flow's claims (DefaultsFlowResult): the same as the flow's, without the void and
 * without telling known values from unknown ones; the code and the summary still as sent.
 */
export function defaultsResultProblems(result: Partial<DefaultsFlowResult>, service: Service): string[] {
  const { capture_error, status_summary } = EXPECTED[service];
  return [
    ...sharedProblems(result),
    ...expectedProblems(result, { capture_error, status_summary }),
    ...feeProblems(result.service_fee),
  ];
}

/** The last line of the output that starts with the marker, parsed; throws when there is none. */
function resultLine<T>(output: string, marker: string): { line: string; result: Partial<T> } {
  const line = output
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(`${marker} `));
  if (!line) throw new Error(`the flow program printed no ${marker} line. Its output:\n${output.slice(-3000)}`);
  return { line, result: JSON.parse(line.slice(marker.length + 1)) as Partial<T> };
}

const serviceName = (service: Service) => (service === 'drill' ? 'under the evolution drill' : 'today');

/** Returns the session id once every claim holds; throws with what does not. `run` is the PARTNER_RUN the program was given, which it put in the session's metadata. */
export async function checkFlow(
  output: string,
  sandbox: Sandbox,
  run: string,
  service: Service = 'today',
): Promise<string> {
  const { line, result } = resultLine<FlowResult>(output, 'PARTNER_RESULT');
  const problems = resultProblems(result, service);
  if (problems.length > 0)
    throw new Error(`the flow program's result is wrong (${serviceName(service)}): ${problems.join('; ')}\n${line}`);
  return sandboxAgrees(result, sandbox, run);
}

/** checkFlow for a defaults flow, which prints `PARTNER_DEFAULTS_RESULT <DefaultsFlowResult>`. */
export async function checkDefaultsFlow(
  output: string,
  sandbox: Sandbox,
  run: string,
  service: Service = 'today',
): Promise<string> {
  const { line, result } = resultLine<DefaultsFlowResult>(output, 'PARTNER_DEFAULTS_RESULT');
  const problems = defaultsResultProblems(result, service);
  if (problems.length > 0)
    throw new Error(`the defaults flow's result is wrong (${serviceName(service)}): ${problems.join('; ')}\n${line}`);
  return sandboxAgrees(result, sandbox, run);
}

type Sandbox = { baseUrl: string; apiKey: string };

/** The sandbox itself must bear out the claims: this run's session, captured 3000, refunded 1000, with the summary read. */
async function sandboxAgrees(result: Partial<DefaultsFlowResult>, sandbox: Sandbox, run: string): Promise<string> {
  const problems: string[] = [];
  const headers = { 'x-service-api-key': sandbox.apiKey };
  const id = result.session_id!;
  const session = await (
    await fetch(`${sandbox.baseUrl}/payments/v1/payment_session/${encodeURIComponent(id)}`, { headers })
  ).json();
  // The session is this run's own, not one another row made.
  if (session.metadata !== run)
    problems.push(
      `session ${id} is not this run's: its metadata is ${JSON.stringify(session.metadata)}, not ${JSON.stringify(run)}`,
    );
  if (session.capture_amount !== CAPTURED)
    problems.push(`the sandbox says capture_amount ${session.capture_amount}, not ${CAPTURED}`);
  if (session.status_summary !== result.status_summary)
    problems.push(
      `the sandbox says status_summary ${JSON.stringify(session.status_summary)}, the program read ${JSON.stringify(result.status_summary)}`,
    );
  const query = new URLSearchParams({ search: id, summarize_refunds: 'true', kind: 'authorization' });
  const list = await (await fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions?${query}`, { headers })).json();
  const item = (list.payment_sessions ?? []).find((s: { id?: string }) => s.id === id);
  if (!item) problems.push(`the sandbox's list does not find session ${id}: ${JSON.stringify(list).slice(0, 300)}`);
  else if (item.refund_amount !== REFUNDED)
    problems.push(`the sandbox says refund_amount ${item.refund_amount}, not ${REFUNDED}`);
  if (problems.length > 0) throw new Error(`the sandbox disagrees with the flow program: ${problems.join('; ')}`);
  return id;
}
