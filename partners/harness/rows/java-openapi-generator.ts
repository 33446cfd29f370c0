// Java: openapi-generator's `java` generator with its `native` library (java.net.http and Jackson),
// built with the Maven project it generates, into which the partner's flow program, samples program
// and webhook verifier are copied, as a partner's repository would hold them.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { generatorWarnings, openapiGenerator, OPENAPI_GENERATOR_TOOLCHAIN } from './openapi-generator.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';

const source = 'partners/java/openapi-generator';
const clientPackage = 'com.example.payments.client';
const sources = (ctx: RowContext) => path.join(ctx.workDir, 'src', 'main', 'java');
const packageDir = (ctx: RowContext, sub: string) => path.join(sources(ctx), ...`${clientPackage}.${sub}`.split('.'));

/**
 * Maven, with its local repository in the matrix's cache. The generated pom compiles for Java 11;
 * the verifier uses java.util.HexFormat, so Java 17.
 */
const maven = (ctx: RowContext, goals: string[]) =>
  ctx.run('mvn', [
    '-B',
    '-q',
    `-Dmaven.repo.local=${path.join(ctx.cacheDir, 'maven')}`,
    '-Dmaven.compiler.release=17',
    ...goals,
  ]);

const classpath = (ctx: RowContext) =>
  [
    path.join(ctx.workDir, 'target', 'classes'),
    readFileSync(path.join(ctx.workDir, 'classpath.txt'), 'utf8').trim(),
  ].join(path.delimiter);

/**
 * The generator with its defaults (library okhttp-gson) from the OpenAPI 3.1 document, only the
 * package names, built with the Maven project it generates.
 */
const defaults: DefaultsClient = {
  additions: [`invokerPackage, apiPackage, modelPackage: the partner's packages (${clientPackage}, .api, .model)`],
  async build(ctx) {
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'java',
      '-i',
      ctx.documents.openapi31,
      '-o',
      ctx.workDir,
      '--additional-properties',
      [
        `invokerPackage=${clientPackage}`,
        `apiPackage=${clientPackage}.api`,
        `modelPackage=${clientPackage}.model`,
      ].join(','),
    ]);
    copyFileSync(path.join(ctx.root, source, 'defaults', 'Flow.java'), path.join(sources(ctx), 'Flow.java'));
    await maven(ctx, [
      'compile',
      'dependency:build-classpath',
      '-Dmdep.outputFile=classpath.txt',
      '-DincludeScope=runtime',
    ]);
    return { warnings: [...generatorWarnings(result.output)] };
  },
  async flow(ctx, env) {
    return (await ctx.run('java', ['-cp', classpath(ctx), 'Flow'], { env: { ...env } })).output;
  },
};

export const javaOpenapiGenerator: Row = {
  id: 'java-openapi-generator',
  language: 'Java',
  generator: 'openapi-generator (java, native)',
  generatorPin: 'openapi-generator-cli',
  document: '3.1',
  toolchain: [
    OPENAPI_GENERATOR_TOOLCHAIN,
    { command: 'javac', hint: 'a JDK (17 or later) to compile the client', debian: ['openjdk-17-jdk-headless'] },
    { command: 'mvn', hint: 'Apache Maven from https://maven.apache.org', debian: ['maven'] },
  ],
  async generate(ctx) {
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'java',
      '--library',
      'native',
      '-i',
      ctx.documents.openapi31,
      '-o',
      ctx.workDir,
      '--global-property',
      'apiTests=false,modelTests=false,apiDocs=false,modelDocs=false',
      '--additional-properties',
      [
        `invokerPackage=${clientPackage}`,
        `apiPackage=${clientPackage}.api`,
        `modelPackage=${clientPackage}.model`,
        'groupId=com.example',
        'artifactId=payments-client',
        'useSingleRequestParameter=true',
      ].join(','),
      // Each open enum (anyOf of a string enum and any string) keeps its documented values as a Java
      // enum of their own (<Schema>AnyOf): the anyOf wrapper then holds that enum for a known value
      // and a String for any other. Without this the generator folds the enum into the string, and the
      // documented values have no constants. SKIP_SCHEMA_REUSE: each operation's error code keeps a
      // type of its own, even where two operations list the same codes (the generator would otherwise
      // reuse the first one's: ListDisputesBadRequestError.error typed as
      // ListPaymentSessionsBadRequestErrorError). See NOTES.md, "Settings that make the client tolerant".
      '--inline-schema-options',
      'RESOLVE_INLINE_ENUMS=true,SKIP_SCHEMA_REUSE=true',
      // ServiceFee's number branch (format double, the only one in the document) as a BigDecimal:
      // money, and a decimal string ("0.00") or number (0) both read into it with its scale.
      '--type-mappings',
      'double=BigDecimal',
    ]);
    // The partner's code sits beside the generated client, in the default package.
    for (const file of ['Flow.java', 'Samples.java'])
      copyFileSync(path.join(ctx.root, source, file), path.join(sources(ctx), file));
    copyFileSync(
      path.join(ctx.root, 'partners/java/VerifyWebhook.java'),
      path.join(sources(ctx), 'VerifyWebhook.java'),
    );
    return { warnings: [...generatorWarnings(result.output)] };
  },
  async compile(ctx) {
    // Only the compile phase: no tests, javadoc or jars to build. The runtime classpath goes to a file
    // for the flow's `java -cp`.
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
    ...sampleProgramOf('java-openapi-generator'),
    async run(ctx, env) {
      return (await ctx.run('java', ['-cp', classpath(ctx), 'Samples'], { env: { ...env } })).output;
    },
  },
  verify: (ctx, input) =>
    ctx.run(
      'java',
      [
        '-cp',
        path.join(ctx.workDir, 'target', 'classes'),
        'VerifyWebhook',
        input.bodyFile,
        input.signatureHeader,
        input.secret,
      ],
      { allowFailure: true },
    ),
  async typeNames(ctx) {
    // Retrieve's answer: the return type of the generated method.
    const api = readFileSync(path.join(packageDir(ctx, 'api'), 'PaymentSessionsApi.java'), 'utf8');
    const session = /public (\w+) retrievePaymentSession\(/.exec(api)?.[1];
    // The native library's methods throw ApiException for every non-2xx answer, whatever its body: the
    // 400's model is the one the generator's own copy of the document (api/openapi.yaml, after its
    // inline-schema naming) gives capture's 400.
    const document = parse(readFileSync(path.join(ctx.workDir, 'api', 'openapi.yaml'), 'utf8'));
    const ref: string | undefined =
      document.paths['/payments/v1/payment_session/{business_id}/capture'].post.responses['400'].content[
        'application/json'
      ].schema.$ref;
    const captureError = ref?.split('/').pop();
    if (!session || !captureError)
      throw new Error(`the generated code names no session type (${session}) or capture error schema (${ref})`);
    if (!existsSync(path.join(packageDir(ctx, 'model'), `${captureError}.java`)))
      throw new Error(`no generated model ${captureError}.java for capture's 400`);
    return { session, captureError };
  },
  defaults,
};
