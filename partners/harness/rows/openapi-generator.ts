// openapi-generator, as PyPI's openapi-generator-cli carries it (its jar, run on the machine's
// Java): the generator that several rows use, each with its own generator name and options.
import path from 'node:path';
import type { RowContext } from '../row.js';
import type { RunResult } from '../run-command.js';
import { pythonVenv } from './python-venv.js';

export const OPENAPI_GENERATOR_TOOLCHAIN = {
  command: 'java',
  hint: 'a Java runtime (17 or later) for openapi-generator',
  debian: ['openjdk-17-jre-headless'],
};

/** The pinned openapi-generator-cli command, in its venv in the matrix's cache. */
export async function openapiGeneratorCommand(ctx: RowContext): Promise<string> {
  const venv = await pythonVenv(ctx, 'openapi-generator', [
    `openapi-generator-cli==${ctx.pins['openapi-generator-cli']}`,
  ]);
  return path.join(venv, 'bin', 'openapi-generator-cli');
}

export async function openapiGenerator(ctx: RowContext, args: string[]): Promise<RunResult> {
  return ctx.run(await openapiGeneratorCommand(ctx), args);
}

/** openapi-generator's warnings: its log lines at WARN level, each distinct line once (the table counts them; CONTRIBUTING.md explains each kind). */
export const generatorWarnings = (output: string) => [
  ...new Set(output.split('\n').filter((line) => /\bWARN\b/.test(line))),
];
