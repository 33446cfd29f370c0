// TypeScript: Orval, a fetch client and Zod schemas of the components, in a fresh npm project; the
// flow parses each answer with the generated schema. (openapi-zod-client, the first choice, has had
// no release since early 2025 and its client runs on Zodios, which stays on Zod 3: see
// partners/typescript/orval/NOTES.md.) Besides the four steps, it fails when the schema of a
// session, a list item or a dispute holds a zod.unknown().
import { copyFileSync, readFileSync } from 'node:fs';
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
import { checkedSchemas, unknownsIn, warningLines } from './typescript-checks.js';

const source = 'partners/typescript/orval';

/** The model type the generated client gives `data` for one status of an operation. */
function answerType(workDir: string, operation: string, status: number): string {
  const client = readFileSync(path.join(workDir, 'client', 'payments.ts'), 'utf8');
  const match = new RegExp(`export type ${operation}Response${status} = \\{\\s*data: (\\w+)`).exec(client);
  if (!match) throw new Error(`client/payments.ts types no ${operation}Response${status}`);
  return match[1]!;
}

export const typescriptOrval: Row = {
  id: 'typescript-orval',
  language: 'TypeScript',
  generator: 'orval (fetch + zod)',
  generatorPin: 'orval',
  document: '3.1',
  toolchain: [{ command: 'npm', hint: 'npm, which comes with Node.js' }],
  async generate(ctx) {
    await npmProject(ctx, {
      dependencies: { zod: ctx.pins.zod! },
      devDependencies: {
        orval: ctx.pins.orval!,
        typescript: ctx.pins.typescript!,
        '@types/node': ctx.pins['@types/node']!,
      },
    });
    copyPartnerFiles(ctx, source);
    copyFileSync(
      path.join(ctx.root, 'partners/typescript/openapi-fetch/verify-webhook.ts'),
      path.join(ctx.workDir, 'verify-webhook.ts'),
    );
    copyFileSync(ctx.documents.openapi31, path.join(ctx.workDir, 'openapi.json'));
    // orval.config.ts names the input (openapi.json) and the outputs (client/).
    const result = await ctx.run('npx', ['--no-install', 'orval'], { env: { NO_COLOR: '1' } });

    const unknowns = unknownsIn(path.join(ctx.workDir, 'client', 'payments.zod.ts'), 'zod');
    if (unknowns.length > 0)
      throw new Error(
        `The Zod schemas of ${checkedSchemas.join(', ')} hold ${unknowns.length} zod.unknown():\n${unknowns.map((u) => `  ${u.path}: ${u.text}`).join('\n')}`,
      );
    return { warnings: warningLines(result.output) };
  },
  compile: compileTypescript,
  ...runCompiledTypescript,
  samples: compiledTypescriptSamples('typescript-orval'),
  async typeNames(ctx) {
    return {
      session: answerType(ctx.workDir, 'retrievePaymentSession', 200),
      captureError: answerType(ctx.workDir, 'capturePaymentSession', 400),
    };
  },
  // No configuration file: the CLI's input and output alone. Orval's default client is axios, which
  // the partner installs (its only import).
  defaults: typescriptDefaults({
    source,
    additions: [],
    generator: 'orval',
    imports: ['axios'],
    command: (document) => ['orval', '-i', document, '-o', 'client/payments.ts'],
    warnings: warningLines,
  }),
};
