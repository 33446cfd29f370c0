// The matrix's notes step: every command block of a row's NOTES.md runs as a partner copies it, on a
// fresh clone with `npm start` running. The row's language folder (partners/<language>/, with the
// files its rows share) and generated/ are copied into the scratch folder as a clone holds them:
// the files in git's index (a new file counts once it is added), none of the outputs that a build,
// or a block run in place, left beside them. Then each block
// runs in document order, with bash -euo pipefail, from the folder its marker names, against the
// sandbox the matrix already runs: as tests/contract/readme.test.ts does with the README's
// walkthrough, only the address changes (127.0.0.1:4010 in the block's text, and PARTNER_BASE_URL,
// the variable whose default the partner's programs read it from). The caches are the rows' own
// (the matrix's cache, partnersCacheDir(): npm, pip, Maven, cargo's target folder; Go's are the machine's, as for the rows).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { againstSandbox, notesBlocks, rowFolder } from './notes-blocks.js';
import type { RowContext } from './row.js';
import { CommandFailed, runCommand, tail } from './run-command.js';
import { openapiGeneratorCommand } from './rows/openapi-generator.js';

/** The files a fresh clone holds under these folders: those in git's index, as the working tree has them. */
function cloneFiles(root: string, folders: string[]): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--', ...folders], { cwd: root, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file !== '' && existsSync(path.join(root, file)));
}

/**
 * The environment of the blocks: the matrix's sandbox as the programs' default service, the rows'
 * caches, and openapi-generator-cli (the matrix's pin, as PyPI's package carries it) on the PATH,
 * which the NOTES ask a partner to have.
 */
async function blockEnvironment(ctx: RowContext, baseUrl: string): Promise<Record<string, string>> {
  const bin = path.join(ctx.workDir, '.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(await openapiGeneratorCommand(ctx), path.join(bin, 'openapi-generator-cli'));
  const env: Record<string, string> = {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    PARTNER_BASE_URL: baseUrl,
    // The rows' npm cache, read before the registry: the exact versions the blocks name are there.
    npm_config_cache: path.join(ctx.cacheDir, 'npm'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    PIP_CACHE_DIR: path.join(ctx.cacheDir, 'pip'),
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    MAVEN_OPTS: `-Dmaven.repo.local=${path.join(ctx.cacheDir, 'maven')}`,
    CARGO_TARGET_DIR: path.join(ctx.cacheDir, 'cargo-target', 'notes'),
    CARGO_PROFILE_DEV_DEBUG: 'false',
    CARGO_TERM_COLOR: 'never',
    NO_COLOR: '1',
  };
  return env;
}

/**
 * Runs every command block of the row's NOTES.md in a copy of the clone in ctx.workDir; throws with
 * the block and the end of its output at the first that fails.
 */
export async function runNotesBlocks(ctx: RowContext, rowId: string, baseUrl: string): Promise<void> {
  const folder = rowFolder(rowId);
  const notes = `${folder}/NOTES.md`;
  const blocks = notesBlocks(readFileSync(path.join(ctx.root, notes), 'utf8'), notes);
  for (const file of cloneFiles(ctx.root, [path.dirname(folder), 'generated'])) {
    mkdirSync(path.dirname(path.join(ctx.workDir, file)), { recursive: true });
    copyFileSync(path.join(ctx.root, file), path.join(ctx.workDir, file));
  }
  const env = await blockEnvironment(ctx, baseUrl);
  for (const block of blocks) {
    const started = Date.now();
    const cwd = path.join(ctx.workDir, block.folder);
    const script = againstSandbox(block.text, baseUrl);
    try {
      // Ten minutes: a cold build of a row's client fits in it, and a block that hangs does not stop the matrix.
      await runCommand('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, timeoutMs: 10 * 60_000 });
    } catch (error) {
      if (!(error instanceof CommandFailed)) throw error;
      const status = error.result.status ?? 'killed: time limit';
      throw new Error(
        `${notes}:${block.line}, run from ${block.folder}, failed (exit ${status}):\n${block.text}\n` +
          `--- its output, last lines:\n${tail(error.result.output, 40)}`,
      );
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    ctx.log(`notes: ${notes}:${block.line} ran from ${block.folder} (${seconds} s)`);
  }
  ctx.log(`notes: ${blocks.length} command blocks of ${notes} ran as written`);
}
