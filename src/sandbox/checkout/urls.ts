// Where the sandbox's hosted pages live, for the redirect_url it answers. The `?mode=iframe` of a
// use_iframe session or request only marks its URL as the one to frame: the page follows use_iframe
// itself (page-exits.ts), whatever its URL says.
import type { Session } from '../domain/types.js';

/** The hosted checkout page of a session. */
export function checkoutUrl(origin: string, session: Session): string {
  return `${origin}/checkout/${session.id}${session.request.use_iframe ? '?mode=iframe' : ''}`;
}

/** The page of a provision token request: token setup, an update's survey, or a 422's fix. */
export const provisionUrl = (origin: string, request: { id: string; use_iframe: boolean }) =>
  `${origin}/checkout/setup/${request.id}${request.use_iframe ? '?mode=iframe' : ''}`;
