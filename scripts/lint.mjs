// Lints with zero tolerance, for the contract and then for the sandbox's helper API (a separate
// document under the same rules): Redocly recommended-strict on the split sources, Spectral (oas +
// OWASP + this API's rules) on a fresh bundle, and the official OpenAPI 3.1 JSON schema. Then the
// Arazzo workflows of openapi/workflows/ with Redocly. Any finding, warnings and hints included,
// fails.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { build } from './build.mjs';
import { runTool } from './lib/tools.mjs';

// source: the split root; bundle: the name build.mjs gives its bundle (.yaml and .json).
const documents = [
  { name: 'contract', source: 'openapi/openapi.yaml', bundle: 'openapi' },
  { name: 'sandbox helper API', source: 'openapi/sandbox.yaml', bundle: 'sandbox' },
];

const tmp = mkdtempSync(path.join(os.tmpdir(), 'contract-lint-'));
try {
  await build(tmp, { quiet: true });
  for (const { name, source, bundle } of documents) {
    console.log(`\n=== ${name} (${source}) ===`);
    const bundledYaml = path.join(tmp, `${bundle}.yaml`);

    console.log('redocly lint (recommended-strict), split sources:');
    runTool('redocly', ['lint', source, '--max-problems', '1000']);

    console.log('spectral lint (spectral:oas, OWASP, custom rules), bundled document:');
    runTool('spectral', ['lint', bundledYaml, '--ruleset', '.spectral.yaml', '--fail-severity', 'hint']);

    console.log('OpenAPI 3.1 schema validation, bundled document:');
    const result = await new Validator().validate(path.join(tmp, `${bundle}.json`));
    if (!result.valid) {
      console.error(JSON.stringify(result.errors, null, 2));
      process.exitCode = 1;
    } else {
      console.log('valid against the official OpenAPI 3.1 schema');
    }
  }
  // The contract scenarios: Arazzo 1.0, each step's operation resolved in its source descriptions.
  console.log('\n=== contract scenarios (openapi/workflows/) ===\nredocly lint (Arazzo):');
  const workflows = readdirSync('openapi/workflows').filter((file) => file.endsWith('.arazzo.yaml')).map((file) => `openapi/workflows/${file}`);
  runTool('redocly', ['lint', ...workflows, '--max-problems', '1000']);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
