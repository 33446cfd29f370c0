// Whether a webhook URL points at the sandbox itself. A delivery there would read the sandbox's own
// pages and helpers with the sandbox's address, so an endpoint (or --webhook-url) there is refused.
// Names are not resolved: a DNS name other than localhost that leads back to the sandbox is not
// seen here, and the sandbox still refuses the delivery when it arrives (http/transport-errors.ts).

/**
 * Where the sandbox listens: each address and port it is bound to, and, when it is bound to every
 * interface, the machine's own addresses and host name.
 */
export interface SandboxAddress {
  listening: ReadonlyArray<{ address: string; port: number }>;
  localHosts: readonly string[];
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/**
 * A host as the URL parser writes it (lower case, IPv4 in dotted decimal, IPv6 compressed), without brackets or a
 * final dot.
 */
export function canonicalHost(host: string): string {
  const bare = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  try {
    return new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return bare;
  }
}

/** IPv4 as an IPv4-mapped IPv6 address (::ffff:7f00:1) is the IPv4 address itself. */
function unmapped(host: string): string {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** localhost and its subdomains, 127.0.0.0/8, ::1, and the wildcard addresses, which reach the machine itself. */
function isLoopback(host: string): boolean {
  return (
    host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || WILDCARDS.has(host)
  );
}

const portOf = (url: URL) => (url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** The sandbox's own host:port that the URL names, as `host:port`; undefined when it names another. */
export function ownAddressNamed(url: URL, sandbox: SandboxAddress): string | undefined {
  const port = portOf(url);
  const host = unmapped(canonicalHost(url.hostname));
  for (const bound of sandbox.listening) {
    if (bound.port !== port) continue;
    const address = unmapped(canonicalHost(bound.address));
    const anyInterface = WILDCARDS.has(address);
    const local = anyInterface && sandbox.localHosts.some((name) => unmapped(canonicalHost(name)) === host);
    if (host === address || isLoopback(host) || local) return `${url.hostname}:${port}`;
  }
  return undefined;
}
