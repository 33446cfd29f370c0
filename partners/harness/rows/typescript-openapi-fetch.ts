// TypeScript: types from openapi-typescript, calls through openapi-fetch, in a fresh npm project
// as a partner's repository would hold them (not this package's own client). --enum-values adds an
// array of each enum's documented values to the types, so schema.ts is compiled with the flow
// (partners/typescript/openapi-fetch/NOTES.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Row } from '../row.js';
import {
  compileTypescript,
  compiledTypescriptSamples,
  copyPartnerFiles,
  npmProject,
  runCompiledTypescript,
  typescriptDefaults,
} from './npm-project.js';

const source = 'partners/typescript/openapi-fetch';

/** The type openapi-typescript gives an operation's JSON answer of one status, as schema.ts spells it. */
function answerType(schema: string, operationId: string, status: number): string {
  const operation = schema.indexOf(`    ${operationId}: {`, schema.indexOf('export interface operations'));
  const answer = operation < 0 ? -1 : schema.indexOf(`            ${status}: {`, operation);
  const type = answer < 0 ? null : /"application\/json": ([^;]+);/.exec(schema.slice(answer));
  if (!type) throw new Error(`schema.ts has no JSON ${status} answer for ${operationId}`);
  return type[1]!.replace(/"/g, "'");
}

export const typescriptOpenapiFetch: Row = {
  id: 'typescript-openapi-fetch',
  language: 'TypeScript',
  generator: 'openapi-typescript + openapi-fetch',
  generatorPin: 'openapi-typescript',
  document: '3.1',
  toolchain: [{ command: 'npm', hint: 'npm, which comes with Node.js' }],
  async generate(ctx) {
    await npmProject(ctx, {
      dependencies: { 'openapi-fetch': ctx.pins['openapi-fetch']! },
      devDependencies: {
        'openapi-typescript': ctx.pins['openapi-typescript']!,
        typescript: ctx.pins.typescript!,
        '@types/node': ctx.pins['@types/node']!,
      },
    });
    copyPartnerFiles(ctx, source);
    // schema.ts: the types, and the arrays of each enum's documented values (compiled with the flow).
    const result = await ctx.run('npx', [
      '--no-install',
      'openapi-typescript',
      ctx.documents.openapi31,
      '--enum-values',
      '-o',
      'schema.ts',
    ]);
    return { warnings: result.output.split('\n').filter((line) => /warn/i.test(line)) };
  },
  compile: compileTypescript,
  ...runCompiledTypescript,
  samples: compiledTypescriptSamples('typescript-openapi-fetch'),
  async typeNames(ctx) {
    const schema = readFileSync(path.join(ctx.workDir, 'schema.ts'), 'utf8');
    return {
      session: answerType(schema, 'retrievePaymentSession', 200),
      captureError: answerType(schema, 'capturePaymentSession', 400),
    };
  },
  // openapi-typescript with no option: the types alone, in schema.d.ts.
  defaults: typescriptDefaults({
    source,
    additions: [],
    generator: 'openapi-typescript',
    imports: ['openapi-fetch'],
    command: (document) => ['openapi-typescript', document, '-o', 'schema.d.ts'],
    warnings: (output) => output.split('\n').filter((line) => /warn/i.test(line)),
  }),
};
