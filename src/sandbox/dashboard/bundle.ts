// Bundles the browser modules of browser/ into the one script the dashboard page carries inline,
// with esbuild: an IIFE, nothing minified, each module's path relative to this folder (so the
// text, and the hash that allows it, are the same wherever the clone lives).
//
// Run as a command (`tsx src/sandbox/dashboard/bundle.ts`, by npm run build:package), it writes the
// bundle beside the package's compiled script.js, dist/sandbox/dashboard/ (or the folder given),
// since an installed package has no esbuild to bundle with (script.ts).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundle's file name, beside the compiled script.js that reads it. */
export const BUNDLE_FILE = 'dashboard-client.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The browser modules' entry: TypeScript from source (tsx), JavaScript once compiled to .build/. */
function entryPoint(): string {
  const source = path.join(here, 'browser', 'main.ts');
  return existsSync(source) ? source : path.join(here, 'browser', 'main.js');
}

/** The script's text. esbuild is a devDependency: imported only here, when a bundle is made. */
export async function bundleDashboardClient(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entryPoint()],
    absWorkingDir: here,
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? path.join(here, '..', '..', '..', 'dist', 'sandbox', 'dashboard');
  writeFileSync(path.join(outDir, BUNDLE_FILE), await bundleDashboardClient());
}
