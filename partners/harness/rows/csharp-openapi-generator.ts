// C#: openapi-generator's `csharp` client with its `httpclient` library (System.Net.Http and
// Newtonsoft.Json), from the OpenAPI 3.0 companion, compiled with Mono's mcs against Debian's
// Newtonsoft.Json 6 and run on Mono: no .NET SDK and no NuGet. No template: the known values of the
// open enums, which the companion gives as plain strings, are the enums the generator makes of its
// <Schema>KnownValue schemas. Newtonsoft6.cs, compiled beside the client, is what only this
// machine's Json.NET needs. The generated code is not edited.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';
import { expectDebianPins } from './debian-libraries.js';
import { generatorWarnings, openapiGenerator, OPENAPI_GENERATOR_TOOLCHAIN } from './openapi-generator.js';

const source = 'partners/csharp/openapi-generator';
const packageName = 'Partner.Payments';
const clientSources = path.join('client', 'src', packageName);

// Debian 12's Json.NET (6.0.8; its package keeps the 5.0 ABI name) and the class libraries beyond
// what mono-mcs brings: System.Net.Http for the client, DataAnnotations for the generated
// IValidatableObject models. Mono loads Newtonsoft.Json from its GAC at run time, where the package
// installs it.
const newtonsoft = '/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll';
const netHttp = '/usr/lib/mono/4.5/System.Net.Http.dll';
const dataAnnotations = '/usr/lib/mono/4.5/System.ComponentModel.DataAnnotations.dll';
/** The Debian packages whose versions the table should state: checked against toolchain.json when it pins them. */
const debianLibraries = ['mono-mcs', 'libnewtonsoft-json5.0-cil'];

/**
 * mcs, Mono's C# compiler: C# 7.2 at most (the generated code needs 7.1's `default` literal), so no
 * nullable reference types. -nowarn:1591: the generated code documents nearly every member, and
 * mcs would warn for each public member it leaves undocumented.
 */
const mcs = (ctx: RowContext, args: string[]) => ctx.run('mcs', ['-langversion:7.2', '-nowarn:1591', ...args]);
const references = [
  '-r:System.Net.Http',
  '-r:System.ComponentModel.DataAnnotations',
  '-r:System.Runtime.Serialization',
  `-r:${newtonsoft}`,
];

/** Debian's Json.NET 6 lacks NamingStrategy, which the generated code sets: Newtonsoft6.cs stands in (NOTES.md). */
const newtonsoft6 = (ctx: RowContext) => path.join(ctx.root, source, 'Newtonsoft6.cs');

/**
 * The generator with its defaults from the OpenAPI 3.0 companion (open enums are strings there, and
 * ServiceFee an Object), with the package name and only what Mono and Debian's libraries need.
 */
const defaults: DefaultsClient = {
  additions: [
    `packageName=${packageName}: the partner's namespace and assembly`,
    "--library httpclient, this machine's toolchain: the default generichost needs System.Text.Json and " +
      'Microsoft.Extensions.Hosting, which neither Mono nor Debian 12 has (nor NuGet here)',
    "targetFramework=netstandard2.0, this machine's toolchain: the default net10.0 turns on nullable reference " +
      "types, which Mono's mcs (C# 7.2 at most) cannot compile",
    "supportsRetry=false, this machine's toolchain: the default retries through Polly, which Debian 12 lacks",
    "Newtonsoft6.cs compiled beside the client, this machine's toolchain: Debian's Json.NET 6.0.8 has no " +
      'NamingStrategy (9.0.1), which the generated serializer settings set',
  ],
  async build(ctx) {
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'csharp',
      '--library',
      'httpclient',
      '-i',
      ctx.documents.openapi30,
      '-o',
      'client',
      '--additional-properties',
      [`packageName=${packageName}`, 'targetFramework=netstandard2.0', 'supportsRetry=false'].join(','),
    ]);
    mkdirSync(path.join(ctx.workDir, 'bin'), { recursive: true });
    await mcs(ctx, [
      '-target:library',
      `-out:bin/${packageName}.dll`,
      ...references,
      `-recurse:${clientSources}/*.cs`,
      newtonsoft6(ctx),
    ]);
    await mcs(ctx, [
      '-out:bin/Flow.exe',
      `-r:bin/${packageName}.dll`,
      ...references,
      path.join(ctx.root, source, 'defaults', 'Flow.cs'),
    ]);
    return { warnings: [...generatorWarnings(result.output)] };
  },
  flow: async (ctx, env) => (await ctx.run('mono', ['bin/Flow.exe'], { env: { ...env } })).output,
};

export const csharpOpenapiGenerator: Row = {
  id: 'csharp-openapi-generator',
  language: 'C#',
  generator: 'openapi-generator csharp (httpclient)',
  generatorPin: 'openapi-generator-cli',
  document: '3.0',
  toolchain: [
    OPENAPI_GENERATOR_TOOLCHAIN,
    { command: 'mcs', hint: "Mono's C# compiler (Debian's mono-mcs)", debian: ['mono-mcs'] },
    { command: 'mono', hint: "the Mono runtime (Debian's mono-runtime)", debian: ['mono-runtime'] },
    {
      command: newtonsoft,
      hint: "Json.NET for Mono (Debian's libnewtonsoft-json5.0-cil)",
      debian: ['libnewtonsoft-json5.0-cil'],
    },
    {
      command: netHttp,
      hint: "Mono's System.Net.Http (Debian's libmono-system-net-http4.0-cil)",
      debian: ['libmono-system-net-http4.0-cil'],
    },
    {
      command: dataAnnotations,
      hint: "Mono's System.ComponentModel.DataAnnotations (Debian's libmono-system-componentmodel-dataannotations4.0-cil)",
      debian: ['libmono-system-componentmodel-dataannotations4.0-cil'],
    },
  ],
  async generate(ctx) {
    const pinned = debianLibraries.filter((name) => ctx.pins[name]);
    await expectDebianPins(ctx, pinned);
    for (const name of debianLibraries.filter((n) => !ctx.pins[n])) {
      const installed =
        // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format, not a template
        (await ctx.run('dpkg-query', ['-W', '-f=${Version}', name], { allowFailure: true })).output.trim();
      ctx.log(`toolchain.json does not pin ${name}; the machine has ${installed || 'none'}`);
    }
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'csharp',
      '--library',
      'httpclient',
      '-i',
      ctx.documents.openapi30,
      '-o',
      'client',
      '--global-property',
      'apiTests=false,modelTests=false,apiDocs=false,modelDocs=false',
      '--additional-properties',
      [`packageName=${packageName}`, 'targetFramework=netstandard2.0', 'supportsRetry=false'].join(','),
    ]);
    return { warnings: [...generatorWarnings(result.output)] };
  },
  async compile(ctx) {
    // The client as a library, as a partner's solution would reference the generated project; the
    // flow, the samples and the verifier as programs beside it (mcs does not make the output folder).
    mkdirSync(path.join(ctx.workDir, 'bin'), { recursive: true });
    await mcs(ctx, [
      '-target:library',
      `-out:bin/${packageName}.dll`,
      ...references,
      `-recurse:${clientSources}/*.cs`,
      newtonsoft6(ctx),
    ]);
    await mcs(ctx, [
      '-out:bin/Flow.exe',
      `-r:bin/${packageName}.dll`,
      ...references,
      path.join(ctx.root, source, 'Flow.cs'),
    ]);
    await mcs(ctx, [
      '-out:bin/Samples.exe',
      `-r:bin/${packageName}.dll`,
      ...references,
      path.join(ctx.root, source, 'Samples.cs'),
    ]);
    await mcs(ctx, ['-out:bin/VerifyWebhook.exe', `-r:${newtonsoft}`, path.join(ctx.root, source, 'VerifyWebhook.cs')]);
  },
  async flow(ctx, env) {
    return (await ctx.run('mono', ['bin/Flow.exe'], { env: { ...env } })).output;
  },
  verify: (ctx, input) =>
    ctx.run('mono', ['bin/VerifyWebhook.exe', input.bodyFile, input.signatureHeader, input.secret], {
      allowFailure: true,
    }),
  samples: {
    ...sampleProgramOf('csharp-openapi-generator'),
    run: async (ctx, env) =>
      (await ctx.run('mono', ['bin/Samples.exe'], { env: { ...env }, timeoutMs: 120_000 })).output,
  },
  async typeNames(ctx) {
    // Retrieve's answer: the return type of the generated method.
    const api = readFileSync(path.join(ctx.workDir, clientSources, 'Api', 'PaymentSessionsApi.cs'), 'utf8');
    const session = /public (\w+) RetrievePaymentSession\(/.exec(api)?.[1];
    // The httpclient library throws ApiException for every answer that is not 2xx, with the body as
    // text: capture's 400 model is the one the generator's copy of the document gives it.
    const document = parse(readFileSync(path.join(ctx.workDir, 'client', 'api', 'openapi.yaml'), 'utf8'));
    const ref: string | undefined =
      document.paths['/payments/v1/payment_session/{business_id}/capture'].post.responses['400'].content[
        'application/json'
      ].schema.$ref;
    const captureError = ref?.split('/').pop();
    if (!session || !captureError)
      throw new Error(`the generated code names no session type (${session}) or capture error schema (${ref})`);
    if (!existsSync(path.join(ctx.workDir, clientSources, 'Model', `${captureError}.cs`)))
      throw new Error(`no generated model ${captureError}.cs for capture's 400`);
    return { session, captureError };
  },
  defaults,
};
