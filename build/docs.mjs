// npm run docs: builds the docs site (the reference, the guides with their diagrams, the try-it
// console) into site/, which works offline and which the sandbox serves at /docs.
//   node build/docs.mjs [--out DIR] [--if-stale]
// --if-stale rebuilds only when the contract, a guide or the builder changed (npm start uses it).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildSite, isFresh } from './docs/build-site.mjs';
import { root } from './lib/tools.ts';

export { buildSite };

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'if-stale': { type: 'boolean' } } });
  const out = values.out ? path.resolve(values.out) : path.join(root, 'site');
  if (values['if-stale'] && isFresh(out)) {
    console.log(`The docs in ${path.relative(process.cwd(), out) || '.'} are up to date.`);
  } else {
    const started = performance.now();
    await buildSite(out, { quiet: true });
    console.log(
      `Built the docs into ${path.relative(process.cwd(), out) || '.'} in ${((performance.now() - started) / 1000).toFixed(1)} s: open index.html, or /docs on the sandbox.`,
    );
  }
}
