// What the PHP, Ruby and Perl rows share: their HTTP and OpenAPI libraries come from Debian's
// packages (Packagist, RubyGems and CPAN are not among the registries the matrix uses), at the
// versions toolchain.json pins; and their "compile" step checks each file with the interpreter.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { RowContext } from '../row.js';

/** 1:7.4.5-1+deb12u1 → 7.4.5, 5.14+dfsg-1 → 5.14: the upstream version, without epoch, revision or repacking suffix. */
export const upstreamVersion = (debian: string) =>
  debian
    .replace(/^\d+:/, '')
    .replace(/-[^-]+$/, '')
    .replace(/\+(dfsg|ds)\d*$/, '');

/**
 * Fails unless each Debian package is installed at the upstream version toolchain.json pins under
 * its name. apt-get installs whatever the release carries; this keeps the table honest about it.
 */
export async function expectDebianPins(ctx: RowContext, packages: string[]): Promise<void> {
  for (const name of packages) {
    const pin = ctx.pins[name];
    if (!pin) throw new Error(`toolchain.json's partners section does not pin ${name}`);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format, not a template
    const result = await ctx.run('dpkg-query', ['-W', '-f=${Version}', name], { allowFailure: true });
    const installed = result.output.trim();
    if (result.status !== 0 || installed === '')
      throw new Error(`Debian's ${name} is not installed (apt-get install ${name})`);
    if (upstreamVersion(installed) !== pin)
      throw new Error(`toolchain.json pins ${name} ${pin}, but the machine has ${installed}`);
  }
}

/** The files under a folder of the row's workDir whose names end with the extension, relative to workDir. */
export function filesUnder(ctx: RowContext, folder: string, extension: string): string[] {
  return readdirSync(path.join(ctx.workDir, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .map((file) => path.join(folder, file))
    .sort();
}

/** Runs a syntax check on each file, two at a time (the interpreters check one file per process). */
export async function checkEach(files: string[], check: (file: string) => Promise<unknown>): Promise<void> {
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await check(file);
  };
  await Promise.all([worker(), worker()]);
}
