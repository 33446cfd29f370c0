// The matrix's samples step: a samples program, run against today's sandbox, must report a 2xx
// status for every operation of the contract, and its file must mark exactly one call of each,
// as the docs build cuts them (build/lib/samples.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { commentOf, reportedStatuses, samplesOf } from '../../build/lib/samples.mjs';
import type { FlowEnvironment, RowContext, SampleProgram } from './row.js';

/** What is wrong with a samples program: its markers (in `text`, the file's content) and the statuses its output reports. */
export function sampleProgramProblems(file: string, text: string, output: string, operationIds: string[]): string[] {
  const markers = samplesOf(text, commentOf(file), operationIds).problems.map((problem) => `${file}: ${problem}`);
  const run = reportedStatuses(output, operationIds).problems.map((problem) => `its run: ${problem}`);
  return [...markers, ...run];
}

/** Runs the program and throws with its problems, and the end of its output when the run is at fault. */
export async function checkSampleProgram(
  program: SampleProgram,
  ctx: RowContext,
  env: FlowEnvironment,
  operationIds: string[],
): Promise<void> {
  const output = await program.run(ctx, env);
  const text = readFileSync(path.join(ctx.root, program.file), 'utf8');
  const problems = sampleProgramProblems(program.file, text, output, operationIds);
  if (problems.length > 0)
    throw new Error(
      `${problems.join('\n')}\n--- the program's output, last lines:\n${output.trimEnd().split('\n').slice(-15).join('\n')}`,
    );
  ctx.log(`samples: ${operationIds.length} operations, each 2xx, each marked once in ${program.file}`);
}
