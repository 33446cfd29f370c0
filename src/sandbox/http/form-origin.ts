// Whether a hosted page's form POST came from the sandbox's own page. A browser says where a
// request comes from: `Sec-Fetch-Site` (same-origin, same-site, cross-site, none) and, on a POST,
// `Origin`. Only the pages themselves post these forms, so anything but the same origin is refused;
// same-site too, since another port of the same host (a dev server on localhost:5173) is the same
// site. A request with neither header (curl, a test script) is judged by its form token alone.
import type { IncomingHttpHeaders } from 'node:http';

/** Sec-Fetch-Site values a page's own form is sent with: `none` is a navigation the user started. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** Whether the request comes from another site; its `Host` is the origin the pages are served on. */
export function fromAnotherSite(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(String(site))) return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  // `null`: an opaque origin (a sandboxed frame, a data: page); never the sandbox's page.
  return !sameHost(origin, headers.host);
}

/**
 * The Origin's host and port against the Host header, both read with the Origin's scheme: a default port, written or
 * not, compares equal.
 */
function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const from = new URL(origin);
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
