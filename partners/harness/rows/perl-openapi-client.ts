// Perl: OpenAPI::Client (with JSON::Validator), from Debian's packages. It reads the document at
// run time and makes a method per operationId: there is no generation step, so "generate" loads the
// 3.0 companion (the client cannot read 3.1) the way the flow will, offline.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';
import { expectDebianPins } from './debian-libraries.js';
import { copyPartnerFiles } from './npm-project.js';

const source = 'partners/perl/openapi-client';
const document = 'openapi-3.0.json';

/** The schema an operation's answer with this status references: what the validator checks the body against. */
function responseSchema(ctx: RowContext, pathName: string, method: string, status: number): string {
  const spec = JSON.parse(readFileSync(path.join(ctx.workDir, document), 'utf8'));
  const ref: string | undefined =
    spec.paths[pathName]?.[method]?.responses?.[status]?.content?.['application/json']?.schema?.$ref;
  if (!ref) throw new Error(`${method} ${pathName} ${status} references no schema`);
  return ref;
}

/**
 * OpenAPI::Client as it comes: the same 3.0 companion, no option but the base URL, and no check of
 * the answers beyond reading their JSON. It generates nothing, so "build" copies the document and
 * checks the flow's syntax.
 */
const defaults: DefaultsClient = {
  additions: [],
  async build(ctx) {
    copyPartnerFiles(ctx, `${source}/defaults`);
    copyFileSync(ctx.documents.openapi30, path.join(ctx.workDir, document));
    await ctx.run('perl', ['-c', 'flow.pl']);
    return { warnings: [] };
  },
  async flow(ctx, env) {
    return (await ctx.run('perl', ['flow.pl', document], { env: { ...env } })).output;
  },
};

export const perlOpenapiClient: Row = {
  id: 'perl-openapi-client',
  language: 'Perl',
  generator: 'OpenAPI::Client',
  generatorPin: 'libopenapi-client-perl',
  document: '3.0',
  toolchain: [
    { command: 'perl', hint: 'Perl 5', debian: ['perl'] },
    {
      command: '/usr/share/perl5/OpenAPI/Client.pm',
      hint: "OpenAPI::Client with JSON::Validator (Debian's libopenapi-client-perl)",
      debian: ['libopenapi-client-perl'],
    },
  ],
  async generate(ctx) {
    await expectDebianPins(ctx, ['libopenapi-client-perl', 'libjson-validator-perl']);
    copyPartnerFiles(ctx, source);
    copyFileSync(ctx.documents.openapi30, path.join(ctx.workDir, document));
    // JSON::Validator fetches what its cache lacks: a dead proxy makes any such fetch fail, and its
    // debug log names every source it loads (the document, and the OpenAPI 3.0 schema it bundles).
    const offline = {
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '',
      JSON_VALIDATOR_DEBUG: '1',
    };
    const result = await ctx.run('perl', ['-MOpenAPI::Client', '-e', 'OpenAPI::Client->new(shift)', document], {
      env: offline,
    });
    const lines = result.output.split('\n').filter((line) => line.trim() !== '');
    for (const line of lines.filter((l) => / Load from /.test(l))) ctx.log(line.trim());
    return { warnings: lines.filter((line) => !line.startsWith('[JSON::Validator]')) };
  },
  async compile(ctx) {
    for (const file of ['flow.pl', 'samples.pl', 'verify-webhook.pl']) await ctx.run('perl', ['-c', file]);
  },
  async flow(ctx, env) {
    return (await ctx.run('perl', ['flow.pl', document], { env: { ...env } })).output;
  },
  verify: (ctx, input) =>
    ctx.run('perl', ['verify-webhook.pl', input.bodyFile, input.signatureHeader, input.secret], { allowFailure: true }),
  samples: {
    ...sampleProgramOf('perl-openapi-client'),
    run: async (ctx, env) =>
      (await ctx.run('perl', ['samples.pl', document], { env: { ...env }, timeoutMs: 120_000 })).output,
  },
  async typeNames(ctx) {
    return {
      session: responseSchema(ctx, '/payments/v1/payment_session/{business_id}', 'get', 200),
      captureError: responseSchema(ctx, '/payments/v1/payment_session/{business_id}/capture', 'post', 400),
    };
  },
  defaults,
};
