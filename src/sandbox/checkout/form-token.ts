// The anti-forgery token of a hosted page's form: HMAC-SHA256 of the form's purpose and its
// session or provision request id, under the database's page secret (store/page-secret.ts). Only
// whoever reads the page has it, and the pages send no CORS header, so a page on another origin
// cannot read it. It is the same on every render of the page, so that a second tab or the back
// button still submits, and it outlives a restart, since the secret is in the database.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The hidden field that carries it. */
export const FORM_TOKEN_FIELD = 'form_token';

/**
 * What the form acts on: a session's checkout, a provision request's page, or the dashboard's Resend (keyed by the
 * page's random value).
 */
export type FormPurpose = 'checkout' | 'setup' | 'dashboard';

export interface FormTokens {
  issue(purpose: FormPurpose, id: string): string;
  /** Whether `token` is the one issued for this purpose and id (compared in constant time). */
  verify(purpose: FormPurpose, id: string, token: string | undefined): boolean;
}

export function formTokens(secret: () => Buffer): FormTokens {
  const issue = (purpose: FormPurpose, id: string) =>
    createHmac('sha256', secret()).update(`${purpose}\n${id}`).digest('base64url');
  return {
    issue,
    verify(purpose, id, token) {
      if (token === undefined) return false;
      const expected = Buffer.from(issue(purpose, id));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
