// Kotlin: openapi-generator's `kotlin` generator with its `jvm-okhttp4` library (OkHttp and Moshi),
// from the 3.0 companion, with no template: an open enum is a String, and its known values the enum
// class the generator makes of the companion's <Schema>KnownValue schema.
// The generator writes Gradle files; the partner builds with the Maven project in
// partners/kotlin/openapi-generator/pom.xml (kotlin-maven-plugin, every version exact), into which
// the generated sources, the flow program, the samples program and the webhook verifier go, as a
// partner's repository would hold them.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { generatorWarnings, openapiGenerator, OPENAPI_GENERATOR_TOOLCHAIN } from './openapi-generator.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';

const source = 'partners/kotlin/openapi-generator';
const clientPackage = 'com.example.payments.client';
const sources = (ctx: RowContext) => path.join(ctx.workDir, 'src', 'main', 'kotlin');
const packageDir = (ctx: RowContext, sub: string) => path.join(sources(ctx), ...`${clientPackage}.${sub}`.split('.'));

/** The pom's version properties, and the toolchain.json pin each must equal. */
const POM_PINS = {
  'kotlin.version': 'kotlin',
  'moshi.version': 'moshi',
  'okhttp.version': 'okhttp-jvm',
  'okio.version': 'okio',
} as const;

/** Maven, with its local repository in the matrix's cache (shared with the Java row). */
const maven = (ctx: RowContext, goals: string[]) =>
  ctx.run('mvn', ['-B', '-q', `-Dmaven.repo.local=${path.join(ctx.cacheDir, 'maven')}`, ...goals]);

/** The compiled classes and the runtime classpath that `mvn dependency:build-classpath` wrote (Kotlin's stdlib, Moshi, OkHttp). */
const classpath = (ctx: RowContext) =>
  [
    path.join(ctx.workDir, 'target', 'classes'),
    readFileSync(path.join(ctx.workDir, 'classpath.txt'), 'utf8').trim(),
  ].join(path.delimiter);

/** The schema name of an operation's JSON answer for a status, following a `$ref` to components/responses. */
function answerSchema(documentFile: string, route: string, method: string, status: string): string | undefined {
  const document = JSON.parse(readFileSync(documentFile, 'utf8'));
  let response = document.paths?.[route]?.[method]?.responses?.[status];
  if (response?.$ref) response = document.components?.responses?.[String(response.$ref).split('/').pop()!];
  const ref: string | undefined = response?.content?.['application/json']?.schema?.$ref;
  return ref?.split('/').pop();
}

/**
 * The generator with its defaults (library jvm-okhttp4), from the OpenAPI 3.0 companion, where the
 * open enums are strings and ServiceFee has no type: a package name is all it adds. From the 3.1
 * document its defaults make an empty class of each open enum (see NOTES.md).
 */
const defaults: DefaultsClient = {
  additions: [
    `packageName=${clientPackage}: the partner's package`,
    "this machine's toolchain: Maven builds it (pom.xml), since no Gradle is installed; the generator's build.gradle stays unused",
  ],
  async build(ctx) {
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'kotlin',
      '-i',
      ctx.documents.openapi30,
      '-o',
      ctx.workDir,
      '--additional-properties',
      `packageName=${clientPackage}`,
    ]);
    copyFileSync(path.join(ctx.root, source, 'pom.xml'), path.join(ctx.workDir, 'pom.xml'));
    copyFileSync(path.join(ctx.root, source, 'defaults', 'Flow.kt'), path.join(sources(ctx), 'Flow.kt'));
    await maven(ctx, [
      'compile',
      'dependency:build-classpath',
      '-Dmdep.outputFile=classpath.txt',
      '-DincludeScope=runtime',
    ]);
    return { warnings: generatorWarnings(result.output) };
  },
  async flow(ctx, env) {
    return (await ctx.run('java', ['-cp', classpath(ctx), 'Flow'], { env: { ...env } })).output;
  },
};

export const kotlinOpenapiGenerator: Row = {
  id: 'kotlin-openapi-generator',
  language: 'Kotlin',
  generator: 'openapi-generator (kotlin, jvm-okhttp4)',
  generatorPin: 'openapi-generator-cli',
  document: '3.0',
  toolchain: [
    OPENAPI_GENERATOR_TOOLCHAIN,
    {
      command: 'javac',
      hint: 'a JDK (17 or later) for the Kotlin compiler and the client',
      debian: ['openjdk-17-jdk-headless'],
    },
    { command: 'mvn', hint: 'Apache Maven from https://maven.apache.org', debian: ['maven'] },
  ],
  async generate(ctx) {
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'kotlin',
      '--library',
      'jvm-okhttp4',
      // The 3.0 companion: an open enum is a String there, and its known values an enum class of
      // their own (<Schema>KnownValue, which nothing refers to), so no template.
      '-i',
      ctx.documents.openapi30,
      '-o',
      ctx.workDir,
      // ServiceFee, a string or a number: BigDecimal, which Moshi reads from either.
      '--schema-mappings',
      'ServiceFee=java.math.BigDecimal',
      '--global-property',
      'apiTests=false,modelTests=false,apiDocs=false,modelDocs=false',
      '--additional-properties',
      [`packageName=${clientPackage}`, 'omitGradleWrapper=true'].join(','),
    ]);
    // The partner's build replaces the generated Gradle files; its code sits beside the generated client.
    copyFileSync(path.join(ctx.root, source, 'pom.xml'), path.join(ctx.workDir, 'pom.xml'));
    for (const file of ['Flow.kt', 'Samples.kt', 'VerifyWebhook.kt'])
      copyFileSync(path.join(ctx.root, source, file), path.join(sources(ctx), file));
    return { warnings: [...generatorWarnings(result.output)] };
  },
  async compile(ctx) {
    // The pom's versions are a partner's own pins; they must be toolchain.json's, where every pin of the matrix lives.
    const pom = readFileSync(path.join(ctx.root, source, 'pom.xml'), 'utf8');
    const drift = Object.entries(POM_PINS).filter(
      ([property, pin]) => new RegExp(`<${property}>([^<]*)<`).exec(pom)?.[1] !== ctx.pins[pin],
    );
    if (drift.length > 0)
      throw new Error(
        `pom.xml's ${drift.map(([property, pin]) => `${property} is not toolchain.json's ${pin} (${ctx.pins[pin]})`).join('; ')}`,
      );
    // Only the compile phase: no tests or jars. The runtime classpath goes to a file for `java -cp`.
    await maven(ctx, [
      'compile',
      'dependency:build-classpath',
      '-Dmdep.outputFile=classpath.txt',
      '-DincludeScope=runtime',
    ]);
  },
  async flow(ctx, env) {
    return (await ctx.run('java', ['-cp', classpath(ctx), 'Flow'], { env: { ...env } })).output;
  },
  samples: {
    ...sampleProgramOf('kotlin-openapi-generator'),
    // Samples.kt is in the package `samples`, so that its main() is not Flow.kt's.
    async run(ctx, env) {
      return (await ctx.run('java', ['-cp', classpath(ctx), 'samples.Samples'], { env: { ...env } })).output;
    },
  },
  verify: (ctx, input) =>
    ctx.run('java', ['-cp', classpath(ctx), 'VerifyWebhook', input.bodyFile, input.signatureHeader, input.secret], {
      allowFailure: true,
    }),
  async typeNames(ctx) {
    // Retrieve's answer: the return type of the generated method.
    const api = readFileSync(path.join(packageDir(ctx, 'apis'), 'PaymentSessionsApi.kt'), 'utf8');
    const session = /\bfun retrievePaymentSession\([^)]*\)\s*:\s*(\w+)/.exec(api)?.[1];
    // The client throws ClientException for every 4xx, with the body as text: capture's 400 is read into
    // the model of the schema the document gives it, named as the schema.
    const captureError = answerSchema(
      ctx.documents.openapi31,
      '/payments/v1/payment_session/{business_id}/capture',
      'post',
      '400',
    );
    if (!session || !captureError)
      throw new Error(
        `the generated code names no session type (${session}) or the document no capture error schema (${captureError})`,
      );
    if (!existsSync(path.join(packageDir(ctx, 'models'), `${captureError}.kt`)))
      throw new Error(`no generated model ${captureError}.kt for capture's 400`);
    return { session, captureError };
  },
  defaults,
};
