// Python: openapi-python-client (attrs models, httpx calls) from PyPI, generating a package that
// sits next to the partner's code; compiled with compileall and type-checked with mypy.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';
import { copyPartnerFiles } from './npm-project.js';
import { PYTHON_TOOLCHAIN, copyVerifier } from './python.js';
import { pythonVenv } from './python-venv.js';

const source = 'partners/python/openapi-python-client';
const pkg = 'checkout_client';

/** The partner's venv: the generated package's runtime dependencies, and mypy. */
const runtime = (ctx: RowContext) =>
  pythonVenv(
    ctx,
    'openapi-python-client-runtime',
    ['httpx', 'attrs', 'mypy'].map((name) => `${name}==${ctx.pins[name]}`),
  );
const python = async (ctx: RowContext) => path.join(await runtime(ctx), 'bin', 'python');
/** The generator's venv; its scripts go on the PATH, since its post-generation hooks run the ruff it comes with. */
const generator = (ctx: RowContext) =>
  pythonVenv(ctx, 'openapi-python-client', [`openapi-python-client==${ctx.pins['openapi-python-client']}`]);
const withScripts = (venv: string) => ({ PATH: `${path.join(venv, 'bin')}${path.delimiter}${process.env.PATH}` });

/**
 * The generator with its defaults: Enum classes, the poetry project around the package (its folder,
 * checkout-client/, goes on PYTHONPATH as `pip install ./checkout-client` would put it on the path).
 */
const defaults: DefaultsClient = {
  additions: ['the names: package_name_override and project_name_override (defaults/config.yaml)'],
  async build(ctx) {
    const venv = await generator(ctx);
    copyPartnerFiles(ctx, `${source}/defaults`);
    const generate = ['generate', '--path', ctx.documents.openapi31, '--config', 'config.yaml'];
    const result = await ctx.run(path.join(venv, 'bin', 'openapi-python-client'), generate, { env: withScripts(venv) });
    const py = await python(ctx);
    await ctx.run(py, ['-m', 'compileall', '-q', 'checkout-client', 'flow.py']);
    const mypyCache = path.join(ctx.cacheDir, 'mypy-openapi-python-client-defaults');
    const mypy = ['-m', 'mypy', '--strict', '--cache-dir', mypyCache, 'flow.py'];
    await ctx.run(py, mypy, { env: { MYPYPATH: 'checkout-client' } });
    return { warnings: generatorWarnings(result.output) };
  },
  async flow(ctx, env) {
    return (await ctx.run(await python(ctx), ['flow.py'], { env: { ...env, PYTHONPATH: 'checkout-client' } })).output;
  },
};

export const pythonOpenapiPythonClient: Row = {
  id: 'python-openapi-python-client',
  language: 'Python',
  generator: 'openapi-python-client',
  generatorPin: 'openapi-python-client',
  document: '3.1',
  toolchain: [PYTHON_TOOLCHAIN],
  async generate(ctx) {
    const venv = await generator(ctx);
    copyPartnerFiles(ctx, source);
    copyVerifier(ctx);
    // Its post-generation hooks run ruff, which comes with it: the venv's scripts go on the PATH.
    const result = await ctx.run(
      path.join(venv, 'bin', 'openapi-python-client'),
      [
        'generate',
        '--path',
        ctx.documents.openapi31,
        '--meta',
        'none',
        '--output-path',
        pkg,
        '--config',
        'config.yaml',
      ],
      { env: withScripts(venv) },
    );
    return { warnings: generatorWarnings(result.output) };
  },
  async compile(ctx) {
    const py = await python(ctx);
    await ctx.run(py, ['-m', 'compileall', '-q', pkg, 'flow.py', 'verify_webhook.py', 'samples.py']);
    await ctx.run(py, ['-c', 'import flow, verify_webhook, samples']);
    const mypyCache = path.join(ctx.cacheDir, 'mypy-openapi-python-client');
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
      pkg,
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
    ...sampleProgramOf('python-openapi-python-client'),
    run: async (ctx, env) =>
      (await ctx.run(await python(ctx), ['samples.py'], { env: { ...env }, timeoutMs: 120_000 })).output,
  },
  async typeNames(ctx) {
    // The classes each operation's module parses its 200 and 400 answers into.
    const parsedAs = (operation: string, status: number) => {
      const file = path.join(ctx.workDir, pkg, 'api', 'payment_sessions', `${operation}.py`);
      const name = new RegExp(`response_${status} = (\\w+)\\.from_dict`).exec(readFileSync(file, 'utf8'))?.[1];
      if (!name) throw new Error(`${file} parses no ${status} answer into a model`);
      return name;
    };
    return {
      session: parsedAs('retrieve_payment_session', 200),
      captureError: parsedAs('capture_payment_session', 400),
    };
  },
  defaults,
};

/**
 * openapi-python-client's warnings, one line each. It prints them after a "Warning(s) encountered"
 * heading, each as its heading, a blank line, its detail if any, a blank line, and the offending
 * part of the document as JSON if any, then one more blank line.
 */
export function generatorWarnings(output: string): string[] {
  const lines = output.split('\n').map((line) => line.trimEnd());
  const start = lines.findIndex((line) => /^(Warning|Error)\(s\) encountered/.test(line));
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && line.startsWith('If you believe this was a mistake'));
  const warnings: Array<{ header: string; detail?: string; done?: boolean }> = [];
  let blanks = 0;
  for (const line of lines.slice(start + 1, end < 0 ? undefined : end)) {
    if (line === '') {
      blanks += 1;
      continue;
    }
    const current = warnings.at(-1);
    if (current && blanks === 0) {
      // A line more of the same part: the heading, the detail, or the JSON (skipped).
      if (current.done) continue;
      if (current.detail === undefined) current.header += ` ${line}`;
      else current.detail += ` ${line}`;
    } else if (current && !current.done && blanks === 1 && /^[{[]/.test(line)) current.done = true;
    else if (current && !current.done && blanks === 1 && current.detail === undefined) current.detail = line;
    else warnings.push({ header: line });
    blanks = 0;
  }
  return warnings.map(({ header, detail }) => (detail ? `${header}: ${detail}` : header));
}
