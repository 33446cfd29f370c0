// Python: openapi-generator's python generator (pydantic models, urllib3 calls), on the 3.0
// companion, where an open enum is a plain string with its documented values in x-extensible-enum
// (on the 3.1 document the generator drops those values and also writes a webhooks module that
// does not compile: partners/python/openapi-generator/NOTES.md). The documented values are the
// Enum classes the generator makes of the companion's <Schema>KnownValue schemas; no template. The
// package sits next to the partner's code.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';
import { copyPartnerFiles } from './npm-project.js';
import { OPENAPI_GENERATOR_TOOLCHAIN, generatorWarnings, openapiGenerator } from './openapi-generator.js';
import { PYTHON_TOOLCHAIN, copyVerifier } from './python.js';
import { pythonVenv } from './python-venv.js';

const source = 'partners/python/openapi-generator';
const pkg = 'checkout_client';

/** The partner's venv: what the generated package imports (its requirements.txt), and mypy. */
const runtime = (ctx: RowContext) =>
  pythonVenv(
    ctx,
    'openapi-generator-python-runtime',
    ['pydantic', 'urllib3', 'python-dateutil', 'typing-extensions', 'mypy'].map((name) => `${name}==${ctx.pins[name]}`),
  );
const python = async (ctx: RowContext) => path.join(await runtime(ctx), 'bin', 'python');

/**
 * The generator with its defaults, on the same 3.0 companion: only packageName. It writes a whole
 * project (setup.py, tests, docs) around the package into client/, which goes on PYTHONPATH as `pip
 * install ./client` would put it on the path; its requirements are the partner's venv's.
 */
const defaults: DefaultsClient = {
  additions: [`packageName=${pkg}: the package's name`],
  async build(ctx) {
    copyPartnerFiles(ctx, `${source}/defaults`);
    const generate = ['generate', '-g', 'python', '-i', ctx.documents.openapi30, '-o', 'client'];
    const result = await openapiGenerator(ctx, [...generate, '--additional-properties', `packageName=${pkg}`]);
    const py = await python(ctx);
    await ctx.run(py, ['-m', 'compileall', '-q', `client/${pkg}`, 'flow.py']);
    // The row's mypy.ini: strict on the flow, silent on the generated package's own findings.
    const config = path.join(ctx.root, source, 'mypy.ini');
    const cache = path.join(ctx.cacheDir, 'mypy-openapi-generator-python-defaults');
    const mypy = ['-m', 'mypy', '--config-file', config, '--cache-dir', cache, 'flow.py'];
    await ctx.run(py, mypy, { env: { MYPYPATH: 'client' } });
    return { warnings: [...new Set(generatorWarnings(result.output))] };
  },
  async flow(ctx, env) {
    return (await ctx.run(await python(ctx), ['flow.py'], { env: { ...env, PYTHONPATH: 'client' } })).output;
  },
};

export const pythonOpenapiGenerator: Row = {
  id: 'python-openapi-generator',
  language: 'Python',
  generator: 'openapi-generator (python)',
  generatorPin: 'openapi-generator-cli',
  document: '3.0',
  toolchain: [PYTHON_TOOLCHAIN, OPENAPI_GENERATOR_TOOLCHAIN],
  async generate(ctx) {
    const document = ctx.documents.openapi30;
    if (!existsSync(document))
      throw new Error(`${path.relative(ctx.root, document)} is missing: npm run build writes it`);
    copyPartnerFiles(ctx, source);
    copyVerifier(ctx);
    // The package alone, without setup.py and tox.ini. Open answers keep undeclared properties with the
    // generator's default, since every open schema says additionalProperties: true (NOTES.md).
    const options = [`packageName=${pkg}`, 'generateSourceCodeOnly=true'];
    // The package alone: no test stubs or Markdown docs inside it.
    const skip = 'apiTests=false,modelTests=false,apiDocs=false,modelDocs=false';
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'python',
      '-i',
      document,
      '-o',
      '.',
      '--additional-properties',
      options.join(','),
      '--global-property',
      skip,
    ]);
    // Its logger (OnceLogger) repeats a warning at most once every 2 s rather than once per run, so
    // how many times the same line appears depends on the machine's speed: each line counts once.
    return { warnings: [...new Set(generatorWarnings(result.output))] };
  },
  async compile(ctx) {
    const py = await python(ctx);
    await ctx.run(py, ['-m', 'compileall', '-q', pkg, 'flow.py', 'verify_webhook.py', 'samples.py']);
    await ctx.run(py, ['-c', 'import flow, verify_webhook, samples']);
    // mypy checks the partner's code against the generated types; it does not report the generated
    // package's own findings (mypy.ini, NOTES.md).
    const mypyCache = path.join(ctx.cacheDir, 'mypy-openapi-generator-python');
    await ctx.run(py, [
      '-m',
      'mypy',
      '--config-file',
      'mypy.ini',
      '--cache-dir',
      mypyCache,
      'flow.py',
      'verify_webhook.py',
      'samples.py',
    ]);
  },
  async flow(ctx, env) {
    return (await ctx.run(await python(ctx), ['flow.py'], { env: { ...env } })).output;
  },
  verify: async (ctx, input) =>
    ctx.run(await python(ctx), ['verify_webhook.py', input.bodyFile, input.signatureHeader, input.secret], {
      allowFailure: true,
    }),
  samples: {
    ...sampleProgramOf('python-openapi-generator'),
    run: async (ctx, env) =>
      (await ctx.run(await python(ctx), ['samples.py'], { env: { ...env }, timeoutMs: 120_000 })).output,
  },
  async typeNames(ctx) {
    // The classes the operations deserialize their 200 and 400 answers into.
    const api = readFileSync(path.join(ctx.workDir, pkg, 'api', 'payment_sessions_api.py'), 'utf8');
    const answer = (operation: string, status: number) => {
      const serialize = api.indexOf(`def ${operation}_with_http_info(`);
      const name = new RegExp(`'${status}': "(\\w+)"`).exec(api.slice(serialize))?.[1];
      if (serialize < 0 || !name)
        throw new Error(`${pkg}/api/payment_sessions_api.py maps no ${status} answer of ${operation} to a model`);
      return name;
    };
    return { session: answer('retrieve_payment_session', 200), captureError: answer('capture_payment_session', 400) };
  },
  defaults,
};
