// Where this sandbox listens, read from the server once it listens (nothing before): what a webhook
// endpoint must not point at (domain/own-address.ts).
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { SandboxAddress } from '../domain/own-address.js';

export function sandboxAddress(app: FastifyInstance): SandboxAddress | undefined {
  // A pipe has no host or port: nothing of it can be named by a URL.
  const listening = app
    .addresses()
    .flatMap((bound) => (typeof bound === 'string' ? [] : [{ address: bound.address, port: bound.port }]));
  if (listening.length === 0) return undefined;
  // Bound to every interface, the sandbox answers at each of the machine's addresses too.
  const anyInterface = listening.some(({ address }) => address === '0.0.0.0' || address === '::');
  const localHosts = anyInterface
    ? [hostname(), ...Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address))]
    : [];
  return { listening, localHosts };
}
