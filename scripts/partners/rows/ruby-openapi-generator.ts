// Ruby: openapi-generator's `ruby` client with its Typhoeus library, from Debian's packages, run
// with `ruby -I client/lib` as a vendored library (no Bundler, no gem install). It reads the 3.0
// companion, where each open enum of an answer is a string with its known values in
// `x-extensible-enum`: the models read a String, so a value added later decodes as it came, and the
// companion's closed enum of those known values (<Schema>KnownValue, which nothing refers to)
// becomes a class with their constants; no template. ServiceFee (a string or a number) is mapped to a String:
// the generated anyOf module drops a JSON integer (0) to nil.
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { sampleProgramOf } from '../../lib/samples.mjs';
import { checkEach, expectDebianPins, filesUnder } from './debian-libraries.js';
import { copyPartnerFiles } from './npm-project.js';
import { generatorWarnings, openapiGenerator, OPENAPI_GENERATOR_TOOLCHAIN } from './openapi-generator.js';

const source = 'partners/ruby/openapi-generator';
const gem = 'partner_payments';
const partnerFiles = ['flow.rb', 'samples.rb', 'verify-webhook.rb'];
/** Options a partner would set (each is explained in NOTES.md). */
const options = [
  '--global-property', 'apiTests=false,modelTests=false',
  '--additional-properties', `gemName=${gem},moduleName=PartnerPayments`,
  // The service fee as a decimal String, from a JSON string or a JSON number.
  '--type-mappings', 'ServiceFee=String',
  '--schema-mappings', 'ServiceFee=String',
];
// Debian installs the gem under its version: this is toolchain.json's `ruby-typhoeus` pin, which
// generate checks against dpkg.
const typhoeus = '/usr/share/rubygems-integration/all/gems/typhoeus-1.4.0/lib/typhoeus.rb';

const read = (ctx: RowContext, ...parts: string[]) => readFileSync(path.join(ctx.workDir, 'client', 'lib', gem, ...parts), 'utf8');

/** The generated class that a schema of the document became, as its file spells it. */
function modelClass(ctx: RowContext, schema: string): string {
  for (const file of readdirSync(path.join(ctx.workDir, 'client', 'lib', gem, 'models'))) {
    const text = read(ctx, 'models', file);
    const match = /^module (\w+)\n(?:\s*#.*\n)*\s*class (\w+) < ApiModelBase/m.exec(text);
    if (match && match[2] === schema) return `${match[1]}::${match[2]}`;
  }
  throw new Error(`no generated model class for the schema ${schema}`);
}

/** The schema that an operation's answer with this status references in the document. */
function responseSchema(ctx: RowContext, pathName: string, method: string, status: number): string {
  const document = JSON.parse(readFileSync(ctx.documents.openapi30, 'utf8'));
  const ref: string | undefined = document.paths[pathName]?.[method]?.responses?.[status]?.content?.['application/json']?.schema?.$ref;
  if (!ref) throw new Error(`${method} ${pathName} ${status} references no schema`);
  return ref.split('/').pop()!;
}

/**
 * The generator with its defaults (Typhoeus, gem openapi_client) from the OpenAPI 3.0 companion,
 * where ServiceFee has no type (`Object`): no option at all, loaded as a vendored library as the
 * customized client is.
 */
const defaults: DefaultsClient = {
  additions: [],
  async build(ctx) {
    cpSync(path.join(ctx.root, source, 'defaults'), ctx.workDir, { recursive: true });
    const result = await openapiGenerator(ctx, ['generate', '-g', 'ruby', '-i', ctx.documents.openapi30, '-o', 'client']);
    await ctx.run('ruby', ['-c', 'flow.rb']);
    await ctx.run('ruby', ['-I', 'client/lib', '-e', "require 'openapi_client'"]);
    return { warnings: [...generatorWarnings(result.output)] };
  },
  flow: async (ctx, env) => (await ctx.run('ruby', ['-I', 'client/lib', 'flow.rb'], { env: { ...env } })).output,
};

export const rubyOpenapiGenerator: Row = {
  id: 'ruby-openapi-generator',
  language: 'Ruby',
  generator: 'openapi-generator ruby (typhoeus)',
  generatorPin: 'openapi-generator-cli',
  document: '3.0',
  toolchain: [
    OPENAPI_GENERATOR_TOOLCHAIN,
    { command: 'ruby', hint: "Ruby 2.7 or later (Debian's ruby)", debian: ['ruby', 'ruby-typhoeus'] },
    { command: typhoeus, hint: "Typhoeus 1.4.0 for Ruby (Debian's ruby-typhoeus)", debian: ['ruby-typhoeus'] },
  ],
  async generate(ctx) {
    await expectDebianPins(ctx, ['ruby-typhoeus']);
    copyPartnerFiles(ctx, source);
    const result = await openapiGenerator(ctx, [
      'generate', '-g', 'ruby', '--library', 'typhoeus', '-i', ctx.documents.openapi30, '-o', 'client', ...options,
    ]);
    return { warnings: [...generatorWarnings(result.output)] };
  },
  async compile(ctx) {
    await checkEach([...filesUnder(ctx, 'client', '.rb'), ...partnerFiles], (file) => ctx.run('ruby', ['-c', file]));
    // Loading it: the library's entry file requires every model (the known values' enum classes
    // too) and API, and Typhoeus.
    await ctx.run('ruby', ['-I', 'client/lib', '-e', `require '${gem}'`]);
  },
  async flow(ctx, env) {
    return (await ctx.run('ruby', ['-I', 'client/lib', 'flow.rb'], { env: { ...env } })).output;
  },
  verify: (ctx, input) => ctx.run('ruby', ['verify-webhook.rb', input.bodyFile, input.signatureHeader, input.secret], { allowFailure: true }),
  samples: {
    ...sampleProgramOf('ruby-openapi-generator'),
    run: async (ctx, env) => (await ctx.run('ruby', ['-I', 'client/lib', 'samples.rb'], { env: { ...env }, timeoutMs: 120_000 })).output,
  },
  async typeNames(ctx) {
    // retrieve's answer is the API's return type; capture's 400 has no type in the generated API
    // (ApiError carries the raw body), so it is the model of the schema the document names there.
    const returnType = /def retrieve_payment_session_with_http_info[\s\S]*?return_type = opts\[:debug_return_type\] \|\| '(\w+)'/.exec(read(ctx, 'api', 'payment_sessions_api.rb'));
    if (!returnType) throw new Error('retrieve_payment_session has no return type');
    return {
      session: modelClass(ctx, returnType[1]!),
      captureError: modelClass(ctx, responseSchema(ctx, '/payments/v1/payment_session/{business_id}/capture', 'post', 400)),
    };
  },
  defaults,
};
