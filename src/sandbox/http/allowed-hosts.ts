// The names the sandbox answers to (DNS rebinding). A page of attacker.example whose name an
// attacker re-points at 127.0.0.1 reaches the sandbox with `Host: attacker.example`, its own origin:
// the browser lets it read the answers, and the published development keys open every channel.
// So, as Vite's server.allowedHosts does, the sandbox answers only the names it is reached by:
// an IP address (a rebinding needs a name), `localhost` and its subdomains, the host of
// --public-url, and the names given to --allowed-hosts. Any other Host gets 403 Forbidden.
import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import { HttpRefusal } from './errors.js';

/** One label of a host name (RFC 1123): 1 to 63 letters, digits and inner hyphens. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A host name: labels between single dots, and at most one dot after the last (a rooted name). */
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
/** A name of --allowed-hosts: labels between dots, a leading dot allowing the subdomains too. */
const ALLOWED_NAME = new RegExp(`^\\.?${LABEL}(?:\\.${LABEL})*$`);
/** The longest host name DNS carries (RFC 1035: 255 bytes on the wire), written without its last dot. */
export const MOST_HOST_NAME_CHARS = 253;

/** A name of --allowed-hosts: `sandbox.test` allows that name, `.sandbox.test` it and its subdomains. */
export function checkAllowedHost(name: string): string {
  const lower = name.trim().toLowerCase();
  if (!ALLOWED_NAME.test(lower)) {
    throw new Error(
      `--allowed-hosts: ${JSON.stringify(name)} is not a host name (letters, digits and hyphens between dots; a ` +
        `leading dot allows the subdomains too)`,
    );
  }
  return lower;
}

/**
 * The blanks HTTP allows around a field's value (RFC 9110, 5.6.3: SP and HTAB), and no other:
 * String.prototype.trim would also take away U+00A0, which Node reads from the byte 0xA0 of a
 * header, and so serve `localhost<0xA0>` as localhost.
 */
const AROUND_A_VALUE = /^[ \t]+|[ \t]+$/g;

/**
 * The hostname of a Host header, lower-case, without its port, an IPv6 address's brackets or a
 * rooted name's last dot; undefined when the Host is not a host and an optional port. A host is
 * a name of RFC 1123 labels (at most 253 characters, the last not a number), an IPv4 address, or
 * an IPv6 address in brackets; a port is 1 to 65535. Anything else (a slash, `?`, `#`, `@`, a backslash, a `%`, a
 * blank, an empty label) would let a name end in `.localhost` that is no subdomain of it.
 */
export function hostnameOf(host: string): string | undefined {
  const found = /^(?:\[([0-9a-f:.]+)\]|([^:]+))(?::([0-9]{1,5}))?$/i.exec(host.replace(AROUND_A_VALUE, ''));
  if (found === null) return undefined;
  const [, address, name, port] = found;
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65_535)) return undefined;
  // Brackets hold an IPv6 address only (RFC 3986: an IPv4 address is written bare).
  if (address !== undefined) return isIP(address) === 6 ? address.toLowerCase() : undefined;
  const lower = name!.toLowerCase();
  const unrooted = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  // Checked first, so that the pattern never reads a Host of kilobytes.
  if (unrooted.length > MOST_HOST_NAME_CHARS || !HOST_NAME.test(lower)) return undefined;
  // A name never ends in a number (RFC 1123, 2.1): that is an IPv4 address, four decimal octets
  // without leading zeros, or nothing (a browser reads `127.1` and `0x7f.1` as addresses too).
  return !/(?:^|\.)[0-9]+$/.test(unrooted) || isIP(unrooted) === 4 ? unrooted : undefined;
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
  if (name === undefined) return false;
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || name === allowed.publicHost)
    return true;
  return allowed.names.some((entry) =>
    entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry,
  );
}

/**
 * The most Host values whose allowance is kept: a client sends one Host on every request, a few
 * clients a few. Any number of names can be allowed (every subdomain of localhost), so the memo is
 * emptied when full rather than let grow.
 */
export const MOST_KEPT_HOSTS = 256;

/**
 * Whether a Host names the sandbox, decided once per Host value for as long as the public URL
 * stays the same: a sandbox sees the same few on every request, and parsing one costs more than
 * the rest of the guard. Only allowances are kept; a refused Host is decided again, and explained.
 */
export function hostAllowance(
  allowed: { publicUrl: () => string; names: readonly string[] },
  decide: typeof hostAllowed = hostAllowed,
): (host: string) => boolean {
  const kept = new Set<string>();
  let keptFor: string | undefined;
  let publicHost = '';
  return (host) => {
    const publicUrl = allowed.publicUrl();
    if (publicUrl !== keptFor) {
      kept.clear();
      keptFor = publicUrl;
      publicHost = hostnameOf(new URL(publicUrl).host) ?? '';
    }
    if (kept.has(host)) return true;
    if (!decide(host, { publicHost, names: allowed.names })) return false;
    if (kept.size >= MOST_KEPT_HOSTS) kept.clear();
    kept.add(host);
    return true;
  };
}

/** Refuses, before anything else reads it, a request whose Host is no host, or no name of the sandbox. */
export function registerHostCheck(
  app: FastifyInstance,
  allowed: { publicUrl: () => string; names: readonly string[] },
): void {
  const isAllowed = hostAllowance(allowed);
  app.addHook('onRequest', (request, _reply, done) => {
    // An absolute-form target names the host the request is for, whatever Host says; the usual
    // origin-form (a path, from its first slash) names none.
    const { url } = request;
    const host = (url.startsWith('/') ? undefined : targetAuthorityOf(url)) ?? request.headers.host;
    // A missing Host is the transport's refusal (transport-errors.ts); HTTP/1.0 may send none.
    if (host === undefined) return done();
    if (isAllowed(host)) return done();
    const publicHost = hostnameOf(new URL(allowed.publicUrl()).host) ?? '';
    const shown = JSON.stringify(host.length > 100 ? `${host.slice(0, 100)}…` : host);
    const name = hostnameOf(host);
    if (name === undefined) {
      return done(
        new HttpRefusal(
          403,
          'Forbidden',
          `The host ${shown} is not a host name or an IP address: the sandbox reads a host as letters, digits and ` +
            `hyphens between dots (at most ${MOST_HOST_NAME_CHARS} characters), an IPv4 address, or an IPv6 ` +
            `address in brackets, with an optional port from 1 to 65535.`,
        ),
      );
    }
    done(
      new HttpRefusal(
        403,
        'Forbidden',
        `The sandbox does not answer to the host ${shown}: it answers to an IP address, localhost and ` +
          `${publicHost || 'its public URL'}${allowed.names.length > 0 ? `, and ${allowed.names.join(', ')}` : ''}. ` +
          `To reach it by this name, start it with --allowed-hosts ${name} (or SANDBOX_ALLOWED_HOSTS).`,
      ),
    );
  });
}
