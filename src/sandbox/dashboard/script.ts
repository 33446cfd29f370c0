// The dashboard's script, inline and allowed by its hash (inline-assets.ts), made once and kept.
//
// It is bundled when the page is first asked for, not at build time, because the sandbox runs from
// source in many ways (tsx in every test, `npm run mock`, the bench, the contract and partner
// runs, Stryker's copies, `npm run test:lts`) and from .build/ (`npm start`): a file generated at
// build time would need each of them to make it first, and a fresh clone's `npm test` typechecks
// before any could. Wherever the sandbox runs from a clone, esbuild (a devDependency) is there, and
// one bundle takes a fraction of a second. An installed package has no esbuild: `npm run
// build:package` writes the bundle into dist/ (bundle.ts), and it is read from there when present.
import { readFile } from 'node:fs/promises';
import { inlineAsset, type InlineAsset } from '../checkout/inline-assets.js';
import { BUNDLE_FILE, bundleDashboardClient } from './bundle.js';

async function scriptText(): Promise<string> {
  try {
    return await readFile(new URL(`./${BUNDLE_FILE}`, import.meta.url), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return bundleDashboardClient();
  }
}

let made: Promise<InlineAsset> | undefined;

/** The script element and its CSP hash source; a bundle that failed is tried again on the next request. */
export function dashboardScript(): Promise<InlineAsset> {
  if (made === undefined) {
    made = scriptText().then((text) => inlineAsset('script', text));
    made.catch(() => {
      made = undefined;
    });
  }
  return made;
}
