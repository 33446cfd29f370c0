// A fresh npm project in a row's folder, with exact versions, as a partner's repository holds one.
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';
import type { DefaultsClient, Row, RowContext, SampleProgram } from '../row.js';

export async function npmProject(
  ctx: RowContext,
  deps: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> },
): Promise<void> {
  writeFileSync(
    path.join(ctx.workDir, 'package.json'),
    `${JSON.stringify({ name: 'partner', private: true, type: 'module', ...deps }, null, 2)}\n`,
  );
  await ctx.run('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    '--save-exact',
    `--cache=${path.join(ctx.cacheDir, 'npm')}`,
  ]);
}

/** Copies the partner's own files (flow program, verifier, build files) from partners/… into the row's folder. */
export function copyPartnerFiles(ctx: RowContext, from: string): void {
  cpSync(path.join(ctx.root, from), ctx.workDir, { recursive: true });
}

/** Compiles a TypeScript row's project with its tsc into dist/, an ES module package. */
export async function compileTypescript(ctx: RowContext): Promise<void> {
  await ctx.run('npx', ['--no-install', 'tsc', '-p', '.']);
  writeFileSync(path.join(ctx.workDir, 'dist', 'package.json'), '{"type":"module"}\n');
}

/** The flow and the verifier of a TypeScript row, run from its compiled dist/ on this Node. */
export const runCompiledTypescript: Pick<Row, 'flow' | 'verify'> = {
  async flow(ctx, env) {
    return (await ctx.run(process.execPath, ['dist/flow.js'], { env: { ...env } })).output;
  },
  verify: (ctx, input) =>
    ctx.run(process.execPath, ['dist/verify-webhook.js', input.bodyFile, input.signatureHeader, input.secret], {
      allowFailure: true,
    }),
};

/** A TypeScript row's samples program (samples.ts, compiled with the flow), run from dist/. */
export function compiledTypescriptSamples(rowId: string): SampleProgram {
  return {
    ...sampleProgramOf(rowId),
    async run(ctx, env) {
      return (await ctx.run(process.execPath, ['dist/samples.js'], { env: { ...env }, timeoutMs: 120_000 })).output;
    },
  };
}

/**
 * A TypeScript row's client with the generator's defaults, in its own folder: a fresh npm project
 * with the generator (its pin's name is its npm name), TypeScript and what the client imports, the
 * partner's defaults/ files (flow.ts and the tsconfig.json that compiles it), the generator's
 * command on the 3.1 document as its documentation gives it, then tsc.
 */
export function typescriptDefaults(row: {
  source: string;
  additions: string[];
  generator: string;
  /** The npm packages the generated client imports, by their pins' names. */
  imports: string[];
  /** The generator's command (after npx) on the document. */
  command(document: string): string[];
  warnings(output: string): string[];
}): DefaultsClient {
  return {
    additions: row.additions,
    async build(ctx) {
      const pinned = (names: string[]) => Object.fromEntries(names.map((name) => [name, ctx.pins[name]!]));
      const tools = pinned([row.generator, 'typescript', '@types/node']);
      await npmProject(ctx, { dependencies: pinned(row.imports), devDependencies: tools });
      copyPartnerFiles(ctx, `${row.source}/defaults`);
      const command = ['--no-install', ...row.command(ctx.documents.openapi31)];
      const result = await ctx.run('npx', command, { env: { NO_COLOR: '1' } });
      await compileTypescript(ctx);
      return { warnings: row.warnings(result.output) };
    },
    async flow(ctx, env) {
      return (await ctx.run(process.execPath, ['dist/flow.js'], { env: { ...env } })).output;
    },
  };
}
