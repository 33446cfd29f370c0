// What a hosted page's security headers depend on: whether its session or provision request was
// created with use_iframe, and where its flow ends (success_url, failure_url: the partner).
//
// The reference says only that use_iframe makes the redirect_url "iframe-compatible" and that the
// flow posts {success, redirectUrl} to the parent window. The sandbox's choice: iframe mode belongs
// to what was created with use_iframe: true, whatever the page's URL says (?mode=iframe decides
// nothing), and such a page may be framed only by the partner's origins. Any other page may be
// framed by no one.
import { hasPlainHost, resolveRedirect } from '../domain/create-session.js';
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { Session } from '../domain/types.js';

export interface PageExits {
  /** Created with use_iframe: true: the flow ends with a message to the parent window. */
  iframe: boolean;
  /** The origins of success_url and failure_url, in that order, each once. */
  origins: readonly string[];
}

/** A page that belongs to no session or request (not found, refused): framed by no one, leads nowhere. */
export const NO_EXITS: PageExits = { iframe: false, origins: [] };

/**
 * The origin of a URL, when it has one a header can name: http or https, and a plain host. Create
 * refuses any other (domain/create-session.ts); a row written before that rule still never puts a
 * `*` or a `;` into a page's policy.
 */
function originOf(url: string): string | undefined {
  const parsed = URL.parse(url);
  return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && hasPlainHost(parsed)
    ? parsed.origin
    : undefined;
}

const exitsOf = (iframe: boolean, urls: string[]): PageExits => ({
  iframe,
  origins: [...new Set(urls.flatMap((url) => originOf(url) ?? []))],
});

export const sessionExits = (session: Session): PageExits =>
  exitsOf(
    session.request.use_iframe === true,
    [session.request.success_url, session.request.failure_url].map((url) => resolveRedirect(url, session.id)),
  );

export const provisionExits = (request: ProvisionRequest): PageExits =>
  exitsOf(request.use_iframe, [request.success_url, request.failure_url]);
