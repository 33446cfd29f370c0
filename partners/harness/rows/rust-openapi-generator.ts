// Rust: openapi-generator's `rust` generator (the reqwest library, blocking calls) writes a client
// crate, checkout-api/, that the partner's crate (partners/rust/openapi-generator: the flow program,
// the samples program and the webhook verifier, with a Cargo.lock) depends on by path; cargo builds
// both. Cargo's target folder lives in the matrix's cache, so a warm run compiles only the generated
// crate and the partner's three programs. It reads the 3.0 companion, where each open enum of an
// answer is a string with its known values in `x-extensible-enum`: the models read a String, so a
// value added later decodes as it came; the companion's closed enums of those known values
// (<Schema>KnownValue, which nothing refers to) become Rust enums, so no template. ServiceFee has no type in the companion: a serde_json::Value, either form.
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { copyPartnerFiles } from './npm-project.js';
import { OPENAPI_GENERATOR_TOOLCHAIN, generatorWarnings, openapiGenerator } from './openapi-generator.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';

const source = 'partners/rust/openapi-generator';
const client = 'checkout-api';
/** Options a partner would set: the crate's name, blocking calls, one parameter struct per operation. */
const options = [`packageName=${client}`, 'supportAsync=false', 'useSingleRequestParameter=true'];

const targetDir = (ctx: RowContext) => path.join(ctx.cacheDir, 'cargo-target', 'rust-openapi-generator');
const program = (ctx: RowContext, name: string) => path.join(targetDir(ctx), 'debug', name);
// Without debug info the cached target folder is a fraction of the size, and links faster.
const cargoEnv = (ctx: RowContext) => ({
  CARGO_TARGET_DIR: targetDir(ctx),
  CARGO_PROFILE_DEV_DEBUG: 'false',
  CARGO_TERM_COLOR: 'never',
});

/** The generated name of a type, as the generated code spells it, found by a pattern over one of its files. */
function generatedName(ctx: RowContext, file: string, pattern: RegExp, what: string): string {
  const text = readFileSync(path.join(ctx.workDir, client, file), 'utf8');
  const match = pattern.exec(text);
  if (!match) throw new Error(`no ${what} in ${client}/${file}`);
  return match[1]!;
}

/**
 * The generator with its defaults (reqwest, async) from the OpenAPI 3.0 companion, only the crate's
 * name, in a crate of its own (partners/rust/openapi-generator/defaults: its flow, and tokio's
 * current-thread runtime for the async client), built in the same cached target folder.
 */
const defaults: DefaultsClient = {
  additions: [
    `packageName=${client}: the crate's name (the partner's crate depends on it by path)`,
    "tokio with its rt feature, in the partner's crate: the defaults' calls are async, and need an executor",
  ],
  async build(ctx) {
    cpSync(path.join(ctx.root, source, 'defaults'), ctx.workDir, { recursive: true });
    const result = await openapiGenerator(ctx, [
      'generate',
      '--input-spec',
      ctx.documents.openapi30,
      '--generator-name',
      'rust',
      '--output',
      path.join(ctx.workDir, client),
      '--additional-properties',
      `packageName=${client}`,
    ]);
    await ctx.run('cargo', ['build', '--locked'], { env: cargoEnv(ctx) });
    return { warnings: [...new Set(generatorWarnings(result.output))] };
  },
  async flow(ctx, env) {
    return (await ctx.run(program(ctx, 'partner-defaults'), [], { env: { ...env } })).output;
  },
};

export const rustOpenapiGenerator: Row = {
  id: 'rust-openapi-generator',
  language: 'Rust',
  generator: 'openapi-generator (rust, reqwest)',
  generatorPin: 'openapi-generator-cli',
  document: '3.0',
  toolchain: [
    OPENAPI_GENERATOR_TOOLCHAIN,
    {
      command: 'cargo',
      hint: 'Rust 1.89 or later with cargo, from https://rustup.rs (Debian bookworm’s cargo is older than the crates need)',
    },
    { command: 'cc', hint: 'a C compiler and linker, which rustc links with', debian: ['gcc', 'libc6-dev'] },
    {
      command: 'pkg-config',
      hint: 'pkg-config, which finds OpenSSL for reqwest’s default TLS (native-tls)',
      debian: ['pkg-config'],
    },
    {
      command: '/usr/include/openssl/ssl.h',
      hint: 'the OpenSSL headers, which reqwest’s default TLS (native-tls) builds against',
      debian: ['libssl-dev'],
    },
  ],
  async generate(ctx) {
    copyPartnerFiles(ctx, source);
    const result = await openapiGenerator(ctx, [
      'generate',
      '--input-spec',
      ctx.documents.openapi30,
      '--generator-name',
      'rust',
      '--library',
      'reqwest',
      '--output',
      path.join(ctx.workDir, client),
      '--additional-properties',
      options.join(','),
    ]);
    // One line per request body and response media type repeats the same warning: each kind once.
    return { warnings: [...new Set(generatorWarnings(result.output))] };
  },
  async compile(ctx) {
    await ctx.run('cargo', ['build', '--bins'], { env: cargoEnv(ctx) });
  },
  async flow(ctx, env) {
    return (await ctx.run(program(ctx, 'flow'), [], { env: { ...env } })).output;
  },
  // src/bin/samples.rs, built with the other programs by compile's `cargo build --bins`.
  samples: {
    ...sampleProgramOf('rust-openapi-generator'),
    async run(ctx, env) {
      return (await ctx.run(program(ctx, 'samples'), [], { env: { ...env } })).output;
    },
  },
  verify: (ctx, input) =>
    ctx.run(program(ctx, 'verify_webhook'), [input.bodyFile, input.signatureHeader, input.secret], {
      allowFailure: true,
    }),
  async typeNames(ctx) {
    const api = 'src/apis/payment_sessions_api.rs';
    return {
      session: generatedName(
        ctx,
        api,
        /pub fn retrieve_payment_session\([^)]*\) -> Result<([\w:]+),/,
        'retrieve_payment_session',
      ),
      captureError: generatedName(
        ctx,
        api,
        /pub enum CapturePaymentSessionError \{[^}]*?Status400\(([\w:]+)\)/,
        'Status400 member of CapturePaymentSessionError',
      ),
    };
  },
  defaults,
};
