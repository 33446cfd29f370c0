// The partner matrix's table: a row per language, with the generator, its warnings, each step's
// result (the flow, the webhook and the samples program on today's sandbox, the flow and the
// webhook again under the evolution drill) and the generated names of a session and of capture's
// error. The curl samples have a line of their own, where only the samples step applies.
export interface StepResult {
  ok: boolean;
  seconds: number;
  error?: string;
}

export const STEPS = ['toolchain', 'generate', 'compile', 'flow', 'webhook', 'samples', 'drill'] as const;
export type StepName = (typeof STEPS)[number];

/** Every step not run yet. */
export const notRun = (): RowReport['steps'] => Object.fromEntries(STEPS.map((name) => [name, 'not run'])) as RowReport['steps'];

export interface RowReport {
  id: string;
  language: string;
  generator: string;
  version: string;
  /** The document its generator reads; null for curl, which reads none. */
  document: '3.1' | '3.0' | null;
  warnings: string[];
  /**
   * `samples`: the samples program, every operation once.
   * `drill`: the flow and the webhook again, on the sandbox that plays a later version of the service.
   */
  steps: Record<StepName, StepResult | 'not run'>;
  sessionId?: string;
  typeNames?: { session: string; captureError: string };
  passed: boolean;
}

const cell = (step: StepResult | 'not run') => (step === 'not run' ? '–' : step.ok ? `ok (${step.seconds.toFixed(0)} s)` : 'FAILED');

export function matrixTable(reports: RowReport[]): string {
  const header = ['Language', 'Generator', 'Document', 'Warnings', 'Generate', 'Compile', 'Flow', 'Webhook', 'Samples', 'Drill', 'Session type', 'Capture error type'];
  const lines = reports.map((r) => [
    r.language,
    `${r.generator} ${r.version}`,
    r.document ?? '–',
    String(r.warnings.length),
    cell(r.steps.toolchain === 'not run' || r.steps.toolchain.ok ? r.steps.generate : r.steps.toolchain),
    cell(r.steps.compile),
    cell(r.steps.flow),
    cell(r.steps.webhook),
    cell(r.steps.samples),
    cell(r.steps.drill),
    r.typeNames ? `\`${r.typeNames.session}\`` : '–',
    r.typeNames ? `\`${r.typeNames.captureError}\`` : '–',
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
