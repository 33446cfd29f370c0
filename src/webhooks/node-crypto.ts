// node:crypto is fetched when a sync function runs, never imported: one static `node:` import would
// stop the whole ./webhooks entry from loading in edge runtimes, where verifyWebhookAsync is used.
import type { createHmac } from 'node:crypto';

interface NodeCrypto {
  createHmac: typeof createHmac;
}

/** node:crypto through process.getBuiltinModule (Node has it), or an error naming the async functions. */
export function nodeCrypto(): NodeCrypto {
  const crypto = globalThis.process?.getBuiltinModule?.('node:crypto');
  if (crypto === undefined) {
    throw new Error(
      'verifyWebhook, signWebhook and computeSignature need node:crypto (Node 22 or 24, through ' +
        'process.getBuiltinModule). Where it is absent (Workers, edge routes), use verifyWebhookAsync, ' +
        'signWebhookAsync and computeSignatureAsync, on Web Crypto.',
    );
  }
  return crypto;
}
