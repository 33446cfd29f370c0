// The names the sandbox answers to (DNS rebinding). A page of attacker.example whose name an
// attacker re-points at 127.0.0.1 reaches the sandbox with `Host: attacker.example`, its own origin:
// the browser lets it read the answers, and the published development keys open every channel.
// So, as Vite's server.allowedHosts does, the sandbox answers only the names it is reached by:
// an IP address (a rebinding needs a name), `localhost` and its subdomains, the host of
// --public-url, and the names given to --allowed-hosts. Any other Host gets 403 Forbidden.
import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import { HttpRefusal } from './errors.js';

/** A name of --allowed-hosts: `sandbox.test` allows that name, `.sandbox.test` it and its subdomains. */
export function checkAllowedHost(name: string): string {
  const lower = name.trim().toLowerCase();
  if (!/^\.?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(lower)) {
    throw new Error(`--allowed-hosts: ${JSON.stringify(name)} is not a host name (letters, digits and hyphens between dots; a leading dot allows the subdomains too)`);
  }
  return lower;
}

/** The hostname of a Host header, lower-case, without its port or an IPv6 address's brackets; undefined when it is none. */
export function hostnameOf(host: string): string | undefined {
  const found = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/i.exec(host.trim());
  if (found?.[3] !== undefined && Number(found[3]) > 65_535) return undefined;
  const name = found?.[1] ?? found?.[2];
  return name?.toLowerCase().replace(/\.$/, '');
}

/**
 * The authority of an absolute-form request target (`GET http://name/path`), which a server reads
 * in place of Host (RFC 9112, 3.2.2); undefined for the usual origin-form (`GET /path`).
 */
export function targetAuthorityOf(url: string): string | undefined {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
}

/** Whether a Host header names the sandbox: by an IP address, localhost, the public URL's host, or an allowed name. */
export function hostAllowed(host: string, allowed: { publicHost: string; names: readonly string[] }): boolean {
  const name = hostnameOf(host);
  if (name === undefined || name === '') return false;
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || name === allowed.publicHost) return true;
  return allowed.names.some((entry) => (entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry));
}

/** Refuses, before anything else reads it, a request whose Host is no name of the sandbox. */
export function registerHostCheck(app: FastifyInstance, allowed: { publicUrl: () => string; names: readonly string[] }): void {
  app.addHook('onRequest', (request, _reply, done) => {
    // An absolute-form target names the host the request is for, whatever Host says.
    const host = targetAuthorityOf(request.url) ?? request.headers.host;
    // A missing Host is the transport's refusal (transport-errors.ts); HTTP/1.0 may send none.
    if (host === undefined) return done();
    const publicHost = hostnameOf(new URL(allowed.publicUrl()).host) ?? '';
    if (hostAllowed(host, { publicHost, names: allowed.names })) return done();
    const shown = host.length > 100 ? `${host.slice(0, 100)}…` : host;
    done(new HttpRefusal(403, 'Forbidden', `The sandbox does not answer to the host ${JSON.stringify(shown)}: it answers to an IP address, localhost and ${publicHost || 'its public URL'}${allowed.names.length > 0 ? `, and ${allowed.names.join(', ')}` : ''}. To reach it by this name, start it with --allowed-hosts ${hostnameOf(host) ?? 'NAME'} (or SANDBOX_ALLOWED_HOSTS).`));
  });
}
