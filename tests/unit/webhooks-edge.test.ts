// The ./webhooks entry in an edge runtime (Workers, Deno, edge routes): no node:* module, no Buffer,
// no process; only Web APIs. The entry is bundled with every `node:` import replaced by a module
// that throws when evaluated, then run in a bare node:vm context whose Buffer and process throw
// when touched. A static node:crypto import anywhere in the entry's graph, or Buffer on the async
// path, fails this test.
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';

let bundle: string;

beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(repoRoot, 'src/webhooks/index.ts')],
    bundle: true,
    write: false,
    platform: 'neutral',
    // vm.Script runs scripts, and ES modules in vm need a flag: wrap the same module graph in an IIFE.
    format: 'iife',
    globalName: 'webhooks',
    plugins: [
      {
        name: 'node-builtins-throw',
        setup(b) {
          b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-builtin' }));
          b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
            contents: `throw new Error(${JSON.stringify(`${args.path} is not available in this runtime`)});`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  bundle = result.outputFiles[0]!.text;
});

/** A context with only Web APIs; reading Buffer or process throws, as referencing them would there. */
function edgeContext(): vm.Context {
  const context = vm.createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder });
  for (const name of ['Buffer', 'process', 'require']) {
    Object.defineProperty(context, name, {
      get: () => {
        throw new Error(`${name} is not available in this runtime`);
      },
    });
  }
  return context;
}

/** Loads the bundle in a fresh edge context and runs `script` there with `webhooks` in scope. */
async function runInEdge(script: string): Promise<unknown> {
  const context = edgeContext();
  vm.runInContext(bundle, context);
  // JSON crosses the realm boundary, so the assertions compare plain values.
  return JSON.parse(
    await (vm.runInContext(
      `(async () => JSON.stringify(await (async () => { ${script} })()))()`,
      context,
    ) as Promise<string>),
  );
}

describe('the ./webhooks entry without node: modules, Buffer or process', () => {
  it('loads and verifies a signed delivery with verifyWebhookAsync, from text and from bytes', async () => {
    const result = await runInEdge(`
      const { signWebhookAsync, verifyWebhookAsync } = webhooks;
      const secret = 'whsec_edge';
      const delivery = await signWebhookAsync({ webhook_delivery_id: 'dlv_edge', event_type: 'dispute.created', data: { dispute_id: 'd', state: 'needs_response' } }, ['old', secret]);
      const fromText = await verifyWebhookAsync({ rawBody: delivery.body, signatureHeader: delivery.signatureHeader, secret });
      const fromBytes = await verifyWebhookAsync({ rawBody: new Uint8Array(new TextEncoder().encode(delivery.body)), signatureHeader: delivery.signatureHeader, secret });
      return [fromText.webhook_delivery_id, fromBytes.data.state];
    `);
    expect(result).toEqual(['dlv_edge', 'needs_response']);
  });

  it('verifies an openssl vector and rejects a tampered one with the same reasons', async () => {
    const result = await runInEdge(`
      const { verifyWebhookAsync, WebhookSignatureError } = webhooks;
      const body = '{"webhook_delivery_id":"dlv_01HZX3Q6T2","event_type":"dispute.created","data":{"dispute_id":"0e6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b","state":"needs_response","amount":4999,"currency":"USD","created_at":"2026-11-20T10:00:00Z"}}';
      const options = { rawBody: body, signatureHeader: 't=1763700000,v0=5cc7da2463967bc324a7ccc3a60eb0ca1aa3779b746d4d8d30e7ad0306bee531', secret: 'whsec_test_51Hq8', now: 1763700000000 };
      const reason = (o) => verifyWebhookAsync(o).then(() => 'passed', (e) => e instanceof WebhookSignatureError ? e.reason : String(e));
      return [await reason(options), await reason({ ...options, rawBody: body.replace('4999', '4998') }), await reason({ ...options, now: 1763700301000 })];
    `);
    expect(result).toEqual(['passed', 'signature_mismatch', 'timestamp_too_old']);
  });

  it('parses a legacy delivery and checks its shared secret', async () => {
    const result = await runInEdge(`
      const { parseLegacyWebhook } = webhooks;
      return parseLegacyWebhook('{"payment_token":"ptok_1"}', { apiKeyHeader: 'shared', sharedSecret: 'shared' }).kind;
    `);
    expect(result).toBe('payment_token_updated');
  });

  it('says which function to use when a sync one is called there', async () => {
    const context = vm.createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder }); // no process at all
    vm.runInContext(bundle, context);
    expect(() =>
      vm.runInContext(
        `webhooks.verifyWebhook({ rawBody: '{}', signatureHeader: 't=1,v0=${'a'.repeat(64)}', secret: 's' })`,
        context,
      ),
    ).toThrow(/verifyWebhookAsync/);
  });
});
