// The sync signers and verifyWebhook where node:crypto cannot be had: a Node older than
// process.getBuiltinModule, or no process at all. They throw an Error naming the async functions
// to use instead, not a TypeError from inside. (webhooks-edge.test.ts runs the whole entry in such
// a runtime; this runs the same functions in the test's own process, with process taken away.)
import { describe, expect, it, vi } from 'vitest';
import { computeSignature, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';

const message =
  'verifyWebhook, signWebhook and computeSignature need node:crypto (Node 22 or 24, through process.getBuiltinModule). ' +
  'Where it is absent (Workers, edge routes), use verifyWebhookAsync, signWebhookAsync and computeSignatureAsync, on Web Crypto.';

const calls: Array<[string, () => unknown]> = [
  ['computeSignature', () => computeSignature('{}', 'whsec', 1)],
  ['signWebhook', () => signWebhook({}, 'whsec', 1)],
  [
    'verifyWebhook',
    () => verifyWebhook({ rawBody: '{}', signatureHeader: `t=1,v0=${'a'.repeat(64)}`, secret: 'whsec', now: 1000 }),
  ],
];

/** Runs `call` synchronously in the altered environment and returns what it threw, once restored. */
function thrownWithout(alter: () => () => void, call: () => unknown): unknown {
  const restore = alter();
  try {
    call();
  } catch (error) {
    return error;
  } finally {
    restore();
  }
  return undefined;
}

const withoutGetBuiltinModule = () => {
  const descriptor = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule')!;
  delete (process as { getBuiltinModule?: unknown }).getBuiltinModule;
  return () => Object.defineProperty(process, 'getBuiltinModule', descriptor);
};

const withoutProcess = () => {
  vi.stubGlobal('process', undefined);
  return () => vi.unstubAllGlobals();
};

describe.each(calls)('%s', (_name, call) => {
  it('names the async functions on a Node without process.getBuiltinModule', () => {
    const error = thrownWithout(withoutGetBuiltinModule, call);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message });
    expect(typeof process.getBuiltinModule).toBe('function');
  });

  it('names the async functions where there is no process', () => {
    expect(thrownWithout(withoutProcess, call)).toMatchObject({ message });
    expect(globalThis.process).toBeDefined();
  });
});
