// Where the sandbox is reached, and who may reach it. A pure module: the server asks it at start.
//   - The public URL: the scheme and host of every redirect_url. Configured (--public-url), or the
//     address the sandbox listens on; never a request's Host header, which any client sets.
//   - Protected mode, as Redis has: the development keys are published in the README, so a sandbox
//     that other machines can reach refuses to start with them.
import { DEFAULT_API_KEYS } from './http/auth.js';

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3}|localhost)$/i;

/** The address only this machine reaches: 127.0.0.0/8, ::1 or localhost (0.0.0.0 and :: are every address). */
export const isLoopback = (host: string) => LOOPBACK.test(host.replace(/^\[|\]$/g, ''));

/** --public-url as an origin (`https://sandbox.example:8443`), or an error that says what is expected. */
export function checkPublicUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const plain =
    parsed &&
    ['http:', 'https:'].includes(parsed.protocol) &&
    parsed.pathname === '/' &&
    !parsed.search &&
    !parsed.hash &&
    !parsed.username &&
    !parsed.password;
  if (!parsed || !plain)
    throw new Error(
      `--public-url (SANDBOX_PUBLIC_URL) must be an http or https origin such as https://sandbox.example:8443, ` +
        `with no path, not ${JSON.stringify(url)}`,
    );
  return parsed.origin;
}

/** The URL of the address the sandbox listens on, as a browser on this machine reaches it. */
export function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Why the sandbox must not start on `host` with `apiKeys`, or undefined when it may. */
export function protectedModeRefusal(host: string, apiKeys: ReadonlyMap<string, string>): string | undefined {
  if (isLoopback(host)) return undefined;
  const published = [...apiKeys.keys()].filter((key) => DEFAULT_API_KEYS.has(key));
  if (published.length === 0) return undefined;
  return (
    `Protected mode: the sandbox would listen on ${host}, which other machines may reach, with the development ` +
    `keys that the README publishes (${published.join(', ')}), so anyone on the network could call it with them ` +
    `(and read what its webhooks reach). ` +
    'Set SANDBOX_API_KEYS to keys of your own ("key:channel,key:channel"), or listen on 127.0.0.1.'
  );
}
