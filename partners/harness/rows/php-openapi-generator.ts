// PHP: openapi-generator's `php` client (Guzzle), loaded without Composer: Guzzle from Debian's
// packages and a small autoloader for the generated namespace (partners/php/openapi-generator).
// It reads the 3.0 companion, where each open enum of an answer is a string with its known values
// in `x-extensible-enum`: the models read a string, so a value added later decodes as it came, and
// the companion's closed enum of those known values (<Schema>KnownValue, which nothing refers to)
// becomes a model class with their constants; no template. ServiceFee (a string or a number, with no type
// in the companion) is mapped to a string, so that the drill's JSON number reads as its text.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DefaultsClient, Row, RowContext } from '../row.js';
import { sampleProgramOf } from '../../../build/lib/samples.mjs';
import { checkEach, expectDebianPins, filesUnder } from './debian-libraries.js';
import { copyPartnerFiles } from './npm-project.js';
import { generatorWarnings, openapiGenerator, OPENAPI_GENERATOR_TOOLCHAIN } from './openapi-generator.js';

const source = 'partners/php/openapi-generator';
// The generated namespace (invokerPackage), which autoload.php and loadCheck name too.
const namespace = 'Partner\\Payments';
const partnerFiles = ['autoload.php', 'flow.php', 'samples.php', 'verify-webhook.php'];
/** Options a partner would set (each is explained in NOTES.md). */
const options = [
  '--global-property',
  'apiTests=false,modelTests=false',
  '--additional-properties',
  `invokerPackage=${namespace}`,
  // The service fee as the decimal string it is, from a JSON string or a JSON number. Both mappings
  // are needed (measured): the type mapping alone changes nothing, the schema mapping alone types
  // the property as a Model\ServiceFee class that is not written.
  '--type-mappings',
  'ServiceFee=string',
  '--schema-mappings',
  'ServiceFee=string',
];

// Loading it: the extensions the generated composer.json requires (Composer would check them), and
// every class of the generated library through the partner's autoloader.
const loadCheck = String.raw`<?php
foreach (['curl', 'json', 'mbstring'] as $extension) {
    if (!extension_loaded($extension)) {
        fwrite(STDERR, "PHP lacks the $extension extension (Debian's php-$extension)\n");
        exit(1);
    }
}
require 'autoload.php';
$lib = 'client/lib/';
foreach (new RecursiveIteratorIterator(new RecursiveDirectoryIterator($lib, FilesystemIterator::SKIP_DOTS)) as $file) {
    $class = 'Partner\\Payments\\' . strtr(substr($file->getPathname(), strlen($lib), -strlen('.php')), '/', '\\');
    if (!class_exists($class) && !interface_exists($class)) {
        fwrite(STDERR, "$class does not load\n");
        exit(1);
    }
}
`;

/** The model class that an operation's answer with this status becomes, as the generated Api spells it. */
function responseClass(ctx: RowContext, api: string, operation: string, status: number): string {
  const text = readFileSync(path.join(ctx.workDir, 'client', 'lib', 'Api', `${api}.php`), 'utf8');
  const start = text.indexOf(`public function ${operation}WithHttpInfo(`);
  const end = text.indexOf('public function ', start + 1);
  const match = new RegExp(`case ${status}:\\s*return \\$this->handleResponseWithDataType\\(\\s*'\\\\?([^']+)'`).exec(
    text.slice(start, end),
  );
  if (start < 0 || !match) throw new Error(`${api}::${operation}WithHttpInfo has no model for status ${status}`);
  return match[1]!;
}

/**
 * The generator with its defaults (Guzzle, namespace OpenAPI\\Client) from the OpenAPI 3.0
 * companion, where ServiceFee has no type (`mixed`): no option at all. Only the loading is this
 * machine's: Debian's Guzzle and a small autoloader instead of Composer.
 */
const defaults: DefaultsClient = {
  additions: [
    "this machine's toolchain: no Composer (Packagist is not reachable): Debian's Guzzle and defaults/autoload.php load the client",
  ],
  async build(ctx) {
    cpSync(path.join(ctx.root, source, 'defaults'), ctx.workDir, { recursive: true });
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'php',
      '-i',
      ctx.documents.openapi30,
      '-o',
      'client',
    ]);
    await checkEach(['autoload.php', 'flow.php'], (file) => ctx.run('php', ['-l', file]));
    return { warnings: [...generatorWarnings(result.output)] };
  },
  flow: async (ctx, env) => (await ctx.run('php', ['flow.php'], { env: { ...env } })).output,
};

export const phpOpenapiGenerator: Row = {
  id: 'php-openapi-generator',
  language: 'PHP',
  generator: 'openapi-generator php',
  generatorPin: 'openapi-generator-cli',
  document: '3.0',
  toolchain: [
    OPENAPI_GENERATOR_TOOLCHAIN,
    {
      command: 'php',
      hint: "PHP 8.1 or later with the curl and mbstring extensions (Debian's php-cli, php-curl, php-mbstring)",
      debian: ['php-cli', 'php-curl', 'php-mbstring'],
    },
    {
      command: '/usr/share/php/GuzzleHttp/autoload.php',
      hint: "Guzzle 7 for PHP (Debian's php-guzzlehttp-guzzle)",
      debian: ['php-guzzlehttp-guzzle', 'php-curl', 'php-mbstring'],
    },
  ],
  async generate(ctx) {
    await expectDebianPins(ctx, ['php-guzzlehttp-guzzle']);
    copyPartnerFiles(ctx, source);
    const result = await openapiGenerator(ctx, [
      'generate',
      '-g',
      'php',
      '-i',
      ctx.documents.openapi30,
      '-o',
      'client',
      ...options,
    ]);
    return { warnings: [...generatorWarnings(result.output)] };
  },
  async compile(ctx) {
    await checkEach([...filesUnder(ctx, 'client', '.php'), ...partnerFiles], (file) => ctx.run('php', ['-l', file]));
    writeFileSync(path.join(ctx.workDir, 'load-check.php'), loadCheck);
    await ctx.run('php', ['load-check.php']);
  },
  async flow(ctx, env) {
    return (await ctx.run('php', ['flow.php'], { env: { ...env } })).output;
  },
  verify: (ctx, input) =>
    ctx.run('php', ['verify-webhook.php', input.bodyFile, input.signatureHeader, input.secret], { allowFailure: true }),
  samples: {
    ...sampleProgramOf('php-openapi-generator'),
    run: async (ctx, env) => (await ctx.run('php', ['samples.php'], { env: { ...env }, timeoutMs: 120_000 })).output,
  },
  async typeNames(ctx) {
    return {
      session: responseClass(ctx, 'PaymentSessionsApi', 'retrievePaymentSession', 200),
      captureError: responseClass(ctx, 'PaymentSessionsApi', 'capturePaymentSession', 400),
    };
  },
  defaults,
};
