// Lints with zero tolerance, for the contract, the sandbox's helper API (a separate document under
// the same rules) and the contract's OpenAPI 3.0.3 companion: Redocly recommended-strict on the
// split sources (on the built file for the companion, which has none), Spectral (oas + OWASP + this
// API's rules) on a fresh build, and the official OpenAPI JSON schema of the document's version.
// Then the Arazzo workflows of openapi/workflows/ with Redocly. Any finding, warnings and hints
// included, fails.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { build } from '../build/documents.ts';
import { runTool } from '../build/lib/tools.ts';

// source: the split root; bundle: the name build/documents.ts gives its bundle (.yaml and .json).
const documents = [
  { name: 'contract', source: 'openapi/openapi.yaml', bundle: 'openapi' },
  { name: 'sandbox helper API', source: 'openapi/sandbox.yaml', bundle: 'sandbox' },
  // Converted from the contract's bundle by build/documents.ts: no split sources of its own.
  { name: 'contract, OpenAPI 3.0.3 companion', bundle: 'openapi-3.0' },
];

const tmp = mkdtempSync(path.join(os.tmpdir(), 'contract-lint-'));
try {
  await build(tmp, { quiet: true });
  for (const { name, source, bundle } of documents) {
    console.log(`\n=== ${name} (${source ?? `generated/${bundle}.json`}) ===`);
    const bundledYaml = path.join(tmp, `${bundle}.yaml`);

    console.log(`redocly lint (recommended-strict), ${source ? 'split sources' : 'built document'}:`);
    runTool('redocly', ['lint', source ?? path.join(tmp, `${bundle}.json`), '--max-problems', '1000']);

    console.log('spectral lint (spectral:oas, OWASP, custom rules), bundled document:');
    runTool('spectral', ['lint', bundledYaml, '--ruleset', '.spectral.yaml', '--fail-severity', 'hint']);

    console.log('OpenAPI schema validation, bundled document:');
    const validator = new Validator();
    const result = await validator.validate(path.join(tmp, `${bundle}.json`));
    if (!result.valid) {
      console.error(JSON.stringify(result.errors, null, 2));
      process.exitCode = 1;
    } else {
      console.log(`valid against the official OpenAPI ${validator.version} schema`);
    }
  }
  // The contract scenarios: Arazzo 1.0, each step's operation resolved in its source descriptions.
  console.log('\n=== contract scenarios (openapi/workflows/) ===\nredocly lint (Arazzo):');
  const workflows = readdirSync('openapi/workflows')
    .filter((file) => file.endsWith('.arazzo.yaml'))
    .map((file) => `openapi/workflows/${file}`);
  runTool('redocly', ['lint', ...workflows, '--max-problems', '1000']);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
