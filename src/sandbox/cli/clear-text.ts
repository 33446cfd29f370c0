// `listen` and `trigger` send the API key with every request to --sandbox, and `listen` takes the
// deliveries it forwards from there. Over plain HTTP to another machine, anyone on the way reads
// the key and can change what comes back: said once, at start, on standard error.

/**
 * As the URL parser writes them: localhost itself, 127.0.0.0/8, ::1, and 127/8 IPv4-mapped. Not a
 * subdomain of localhost: Node's dns.lookup finds `localhost` in /etc/hosts, but it asks the
 * network's DNS server for `sandbox.localhost`, and whoever answers that gets the key.
 */
const LOOPBACK_NAME = /^localhost$/;
const LOOPBACK_IPV4 = /^127(\.\d{1,3}){3}$/;
const LOOPBACK_IPV6 = /^\[(::1|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/;

/** Whether the URL's host is this machine by its spelling alone: no name is resolved. */
export function isLoopbackUrl({ hostname }: URL): boolean {
  return LOOPBACK_NAME.test(hostname) || LOOPBACK_IPV4.test(hostname) || LOOPBACK_IPV6.test(hostname);
}

/** The warning for a --sandbox that is neither https nor on this machine; undefined for one that is. */
export function clearTextWarning(sandbox: string): string | undefined {
  const url = new URL(sandbox);
  if (url.protocol === 'https:' || isLoopbackUrl(url)) return undefined;
  return (
    `warning: the sandbox at ${url.origin} is reached over plain HTTP on another machine: ` +
    'the API key travels in clear text, and anyone on the network between can read it and change the answers. ' +
    'Use https, or a tunnel to an address of this machine.'
  );
}
