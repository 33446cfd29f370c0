// The partner matrix's table: a row per language, with the generator, its warnings, each step's
// result (the flow and the webhook on today's sandbox, and both again under the evolution drill)
// and the generated names of a session and of capture's error.
export interface StepResult {
  ok: boolean;
  seconds: number;
  error?: string;
}

export interface RowReport {
  id: string;
  language: string;
  generator: string;
  version: string;
  document: '3.1' | '3.0';
  warnings: string[];
  /** `drill`: the flow and the webhook again, on the sandbox that plays a later version of the service. */
  steps: Record<'toolchain' | 'generate' | 'compile' | 'flow' | 'webhook' | 'drill', StepResult | 'not run'>;
  sessionId?: string;
  typeNames?: { session: string; captureError: string };
  passed: boolean;
}

const cell = (step: StepResult | 'not run') => (step === 'not run' ? '–' : step.ok ? `ok (${step.seconds.toFixed(0)} s)` : 'FAILED');

export function matrixTable(reports: RowReport[]): string {
  const header = ['Language', 'Generator', 'Document', 'Warnings', 'Generate', 'Compile', 'Flow', 'Webhook', 'Drill', 'Session type', 'Capture error type'];
  const lines = reports.map((r) => [
    r.language,
    `${r.generator} ${r.version}`,
    r.document,
    String(r.warnings.length),
    cell(r.steps.toolchain === 'not run' || r.steps.toolchain.ok ? r.steps.generate : r.steps.toolchain),
    cell(r.steps.compile),
    cell(r.steps.flow),
    cell(r.steps.webhook),
    cell(r.steps.drill),
    r.typeNames ? `\`${r.typeNames.session}\`` : '–',
    r.typeNames ? `\`${r.typeNames.captureError}\`` : '–',
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
