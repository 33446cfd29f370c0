// Where the sandbox's hosted pages live, for the redirect_url it answers.
import type { Session } from '../domain/types.js';

/** The hosted checkout page of a session. */
export function checkoutUrl(origin: string, session: Session): string {
  return `${origin}/checkout/${session.id}${session.request.use_iframe ? '?mode=iframe' : ''}`;
}

/** The page where the customer fixes a payment token (a create-session 422). */
export const tokenActionUrl = (origin: string, token: string) => `${origin}/checkout/token/${encodeURIComponent(token)}`;
