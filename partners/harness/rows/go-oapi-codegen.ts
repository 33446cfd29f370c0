// Go: models and a ClientWithResponses from oapi-codegen, which reads the 3.1 document through an
// OpenAPI Overlay (open-enums.overlay.yaml: each open enum becomes a union of a Go enum of its
// documented values and any string), in a Go module as a partner's repository holds it (go.mod,
// go.sum, the generator's config and overlay, three commands: the flow, the samples, the verifier).
// The generator runs through `go run <module>@<pin>`, from the Go module proxy and Go's own caches.
import { copyFileSync, cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { copyPartnerFiles } from './npm-project.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';

const source = 'partners/go/oapi-codegen';
const generated = 'checkoutapi/checkoutapi.gen.go';
const GO_HINT =
  'Go 1.21 or later (it fetches the newer toolchain a module asks for from the Go module proxy), from https://go.dev/dl';

/** The Go toolchain must be 1.21 or later: older ones neither read go.mod's `go 1.24.0` nor fetch a toolchain that does. */
async function checkGoVersion(ctx: RowContext): Promise<void> {
  const version = (await ctx.run('go', ['env', 'GOVERSION'])).output.trim();
  const [, major, minor] = /^go(\d+)\.(\d+)/.exec(version) ?? [];
  if (Number(major) === 1 && Number(minor) < 21)
    throw new Error(`missing toolchain: ${version} is too old; ${GO_HINT}`);
}

/** go.mod requires the runtime library at the version toolchain.json pins: the two must not drift. */
function checkRuntimePin(ctx: RowContext): void {
  const goMod = readFileSync(path.join(ctx.workDir, 'go.mod'), 'utf8');
  const required = /^\s*(?:require\s+)?github\.com\/oapi-codegen\/runtime\s+v(\S+)/m.exec(goMod)?.[1];
  const pinned = ctx.pins['oapi-codegen-runtime'];
  if (required !== pinned)
    throw new Error(
      `${source}/go.mod requires github.com/oapi-codegen/runtime v${required}, but toolchain.json pins ${pinned}`,
    );
}

/**
 * oapi-codegen's warnings: the blocks it prints on stderr after "WARNING:" (one "- key: text" line
 * each), and a response it cannot type ("Response <op>.<name> has nil value"). Go's own
 * "go: downloading …" lines are not warnings.
 */
export const oapiCodegenWarnings = (output: string) =>
  output.split('\n').filter((line) => /^WARNING:|^- [\w-]+: |has nil value$/.test(line));

/** The Go type of a response member (JSON200, JSON400, …) of an operation's generated response struct. */
function memberType(code: string, operation: string, member: string): string {
  const struct = new RegExp(`^type ${operation}Response struct \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(code)?.[1];
  const type = struct && new RegExp(`^\\s*${member}\\s+\\*?([\\w.]+)`, 'm').exec(struct)?.[1];
  if (!type) throw new Error(`${generated} has no ${operation}Response.${member}`);
  return `checkoutapi.${type}`;
}

/**
 * The generator with its defaults, from the OpenAPI 3.0 companion (oapi-codegen is one of the tools
 * that read 3.1 partly): the configuration its README gives a client, a package and a file, and
 * nothing else. From 3.1 it needs `skip-prune` (NOTES.md, "With the generator's defaults").
 */
const defaults: DefaultsClient = {
  additions: [
    "package: checkoutapi, output: checkoutapi/checkoutapi.gen.go, generate: models and client: the configuration oapi-codegen's README gives a client",
  ],
  async build(ctx) {
    await checkGoVersion(ctx);
    for (const file of ['go.mod', 'go.sum'])
      copyFileSync(path.join(ctx.root, source, file), path.join(ctx.workDir, file));
    cpSync(path.join(ctx.root, source, 'defaults'), ctx.workDir, { recursive: true });
    const generator = `github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v${ctx.pins['oapi-codegen']}`;
    const result = await ctx.run('go', ['run', generator, '-config', 'oapi-codegen.yaml', ctx.documents.openapi30]);
    await ctx.run('go', ['build', '-buildvcs=false', '-o', 'bin/flow', '.']);
    return { warnings: oapiCodegenWarnings(result.output) };
  },
  async flow(ctx, env) {
    return (await ctx.run(path.join(ctx.workDir, 'bin', 'flow'), [], { env: { ...env } })).output;
  },
};

export const goOapiCodegen: Row = {
  id: 'go-oapi-codegen',
  language: 'Go',
  generator: 'oapi-codegen',
  generatorPin: 'oapi-codegen',
  document: '3.1',
  toolchain: [{ command: 'go', hint: GO_HINT }],
  async generate(ctx) {
    await checkGoVersion(ctx);
    copyPartnerFiles(ctx, source);
    checkRuntimePin(ctx);
    const generator = `github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v${ctx.pins['oapi-codegen']}`;
    const result = await ctx.run('go', ['run', generator, '-config', 'oapi-codegen.yaml', ctx.documents.openapi31]);
    return { warnings: oapiCodegenWarnings(result.output) };
  },
  async compile(ctx) {
    await ctx.run('go', ['build', '-buildvcs=false', '-o', 'bin/', './cmd/...']);
  },
  async flow(ctx, env) {
    return (await ctx.run(path.join(ctx.workDir, 'bin', 'flow'), [], { env: { ...env } })).output;
  },
  // cmd/samples, built with the other commands by compile's `./cmd/...`.
  samples: {
    ...sampleProgramOf('go-oapi-codegen'),
    async run(ctx, env) {
      return (await ctx.run(path.join(ctx.workDir, 'bin', 'samples'), [], { env: { ...env } })).output;
    },
  },
  verify: (ctx, input) =>
    ctx.run(path.join(ctx.workDir, 'bin', 'verify-webhook'), [input.bodyFile, input.signatureHeader, input.secret], {
      allowFailure: true,
    }),
  async typeNames(ctx) {
    const code = readFileSync(path.join(ctx.workDir, generated), 'utf8');
    return {
      session: memberType(code, 'RetrievePaymentSession', 'JSON200'),
      captureError: memberType(code, 'CapturePaymentSession', 'JSON400'),
    };
  },
  defaults,
};
