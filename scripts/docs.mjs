// Renders the bundled contract as one self-contained HTML page (Redoc inlined, no CDN), so the
// reference works offline. Output: site/index.html, or the path given with --out.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { root, runTool } from './lib/tools.mjs';

export function buildDocs(output = path.join(root, 'site', 'index.html'), { quiet = false } = {}) {
  mkdirSync(path.dirname(output), { recursive: true });
  runTool(
    'redocly',
    ['build-docs', 'generated/openapi.yaml', '--inlineBundle', '--title', 'HSA/FSA Checkout Service API', '-o', output],
    { quiet },
  );
  return output;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--out');
  const output = buildDocs(i > 0 ? path.resolve(process.argv[i + 1]) : undefined);
  console.log(`Open ${path.relative(process.cwd(), output)} in a browser; it needs no network.`);
}
