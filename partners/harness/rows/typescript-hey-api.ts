// TypeScript: @hey-api/openapi-ts, its types and SDK with the fetch client it bundles into the
// output, in a fresh npm project. Besides the four steps, it fails when hey-api renamed a type with a
// `2` (a schema's name clashing with a name it derives from an operationId) and when a session, a
// list item or a dispute is typed `unknown`.
import { copyFileSync } from 'node:fs';
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
import { checkedSchemas, clashRenames, memberType, unknownsIn, warningLines } from './typescript-checks.js';

const source = 'partners/typescript/hey-api';
const typesFile = (workDir: string) => path.join(workDir, 'client', 'types.gen.ts');

export const typescriptHeyApi: Row = {
  id: 'typescript-hey-api',
  language: 'TypeScript',
  generator: '@hey-api/openapi-ts',
  generatorPin: '@hey-api/openapi-ts',
  document: '3.1',
  toolchain: [{ command: 'npm', hint: 'npm, which comes with Node.js' }],
  async generate(ctx) {
    await npmProject(ctx, {
      devDependencies: {
        '@hey-api/openapi-ts': ctx.pins['@hey-api/openapi-ts']!,
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
    // openapi-ts.config.ts names the input (openapi.json) and the output (client/).
    const result = await ctx.run('npx', ['--no-install', 'openapi-ts'], { env: { NO_COLOR: '1' } });

    const problems: string[] = [];
    const renamed = clashRenames(typesFile(ctx.workDir), ctx.documents.openapi31);
    if (renamed.length > 0)
      problems.push(
        `${renamed.length} type names renamed with a 2 (a schema name clashes with one derived from an operationId): ${renamed.join(', ')}`,
      );
    const unknowns = unknownsIn(typesFile(ctx.workDir), 'types');
    if (unknowns.length > 0)
      problems.push(
        `${checkedSchemas.join(', ')} type ${unknowns.length} values unknown:\n${unknowns.map((u) => `  ${u.path}: ${u.text}`).join('\n')}`,
      );
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return { warnings: warningLines(result.output) };
  },
  compile: compileTypescript,
  ...runCompiledTypescript,
  samples: compiledTypescriptSamples('typescript-hey-api'),
  async typeNames(ctx) {
    return {
      session: memberType(typesFile(ctx.workDir), 'RetrievePaymentSessionResponses', '200'),
      captureError: memberType(typesFile(ctx.workDir), 'CapturePaymentSessionErrors', '400'),
    };
  },
  // No configuration file: the CLI's input and output alone, with its default plugins (types, SDK, fetch client).
  defaults: typescriptDefaults({
    source,
    additions: [],
    generator: '@hey-api/openapi-ts',
    imports: [],
    command: (document) => ['openapi-ts', '-i', document, '-o', 'client'],
    warnings: warningLines,
  }),
};
