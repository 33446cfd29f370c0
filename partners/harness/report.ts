// The partner matrix's table: a row per language, with the generator, its warnings, each step's
// result (the flow, the webhook and the samples program on today's sandbox, the flow and the
// webhook again under the evolution drill) and the generated names of a session and of capture's
// error. The curl samples have a line of their own, where only the samples step applies. The
// Defaults column is the same generator with its defaults (Row.defaults): its client built, and its
// short flow on today's sandbox and under the drill; below the table, what each row adds to them.
// The Notes column: every command block of the row's NOTES.md, run as a partner copies it.
export interface StepResult {
  ok: boolean;
  seconds: number;
  error?: string;
}

export const STEPS = ['toolchain', 'generate', 'compile', 'flow', 'webhook', 'samples', 'drill', 'notes'] as const;
export type StepName = (typeof STEPS)[number];

/** Every step not run yet. */
export const notRun = (): RowReport['steps'] =>
  Object.fromEntries(STEPS.map((name) => [name, 'not run'])) as RowReport['steps'];

export const DEFAULTS_STEPS = ['build', 'today', 'drill'] as const;

/** The client generated with the generator's defaults: what the row adds to them, its warnings, and its steps. */
export interface DefaultsReport {
  additions: string[];
  warnings: string[];
  steps: Record<(typeof DEFAULTS_STEPS)[number], StepResult | 'not run'>;
  passed: boolean;
}

/** Every defaults step not run yet. */
export const defaultsNotRun = (): DefaultsReport['steps'] =>
  Object.fromEntries(DEFAULTS_STEPS.map((name) => [name, 'not run'])) as DefaultsReport['steps'];

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
   * `notes`: every command block of the row's NOTES.md, as written, from a copy of a fresh clone (notes-step.ts).
   */
  steps: Record<StepName, StepResult | 'not run'>;
  sessionId?: string;
  typeNames?: { session: string; captureError: string };
  /** Absent for a row that has no defaults client yet (and for curl). */
  defaults?: DefaultsReport;
  passed: boolean;
}

const cell = (step: StepResult | 'not run') =>
  step === 'not run' ? '–' : step.ok ? `ok (${step.seconds.toFixed(0)} s)` : 'FAILED';

/** The Defaults cell: `ok` once the client built and its flow passed today and under the drill; else the first step that failed or did not run. */
function defaultsCell(defaults: DefaultsReport | undefined): string {
  if (!defaults) return '–';
  const failed = DEFAULTS_STEPS.find(
    (name) => defaults.steps[name] === 'not run' || !(defaults.steps[name] as StepResult).ok,
  );
  if (failed) return `FAILED (${failed})`;
  const seconds = (name: 'today' | 'drill') => (defaults.steps[name] as StepResult).seconds.toFixed(0);
  return `ok (today ${seconds('today')} s, drill ${seconds('drill')} s)`;
}

export function matrixTable(reports: RowReport[]): string {
  const header = [
    'Language',
    'Generator',
    'Document',
    'Warnings',
    'Generate',
    'Compile',
    'Flow',
    'Webhook',
    'Samples',
    'Drill',
    'Defaults',
    'Notes',
    'Session type',
    'Capture error type',
  ];
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
    defaultsCell(r.defaults),
    cell(r.steps.notes),
    r.typeNames ? `\`${r.typeNames.session}\`` : '–',
    r.typeNames ? `\`${r.typeNames.captureError}\`` : '–',
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** Below the table: per row with a defaults client, what it adds to the generator's defaults, each with its reason. */
export function additionsSection(reports: RowReport[]): string {
  const rows = reports.filter((r) => r.defaults);
  if (rows.length === 0) return '';
  const lines = rows.map((r) => {
    const additions = r.defaults!.additions;
    const said =
      additions.length === 0
        ? ' nothing: the generator as installed.'
        : `\n${additions.map((a) => `  - ${a}`).join('\n')}`;
    return `- ${r.language}, ${r.generator}:${said}`;
  });
  return `What each row adds to its generator's defaults (the Defaults column):\n\n${lines.join('\n')}`;
}
