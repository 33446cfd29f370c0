// The curl samples of the reference: partners/curl/samples.sh calls every operation with curl, and
// the matrix runs it against today's sandbox before the rows, as a line of its own in the table
// (only its samples step applies: nothing is generated or compiled).
import path from 'node:path';
import { sampleProgramOf } from '../../build/lib/samples.mjs';
import type { SampleProgram, Toolchain } from './row.js';

export const CURL_TOOLCHAIN: Toolchain[] = [
  { command: 'bash', hint: 'bash', debian: ['bash'] },
  { command: 'curl', hint: 'curl, from https://curl.se', debian: ['curl'] },
];

export const curlSamples: SampleProgram = {
  ...sampleProgramOf('curl'),
  async run(ctx, env) {
    // The program reads JSON with `node`: this Node comes first on its PATH.
    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
    return (
      await ctx.run('bash', [path.join(ctx.root, 'partners', 'curl', 'samples.sh')], {
        env: { ...env, PATH },
        timeoutMs: 120_000,
      })
    ).output;
  },
};

/** curl's version, as `curl --version` states it on its first line. */
export const curlVersion = (versionOutput: string) => /^curl (\S+)/.exec(versionOutput)?.[1] ?? '(unknown)';
