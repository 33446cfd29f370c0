// The dashboard's anti-forgery token: a random value drawn for each render of the page, and its
// HMAC under the database's page secret, made and checked as the hosted forms' tokens are
// (checkout/form-token.ts, purpose `dashboard`). Only whoever reads the page has one, and the page
// sends no CORS header, so another origin cannot; since the secret is in the database, a page
// rendered before a restart still resends.
import { randomBytes } from 'node:crypto';
import { formTokens } from '../checkout/form-token.js';

export { DASHBOARD_TOKEN_HEADER } from './token-header.js';

/** `<random value>.<its HMAC>`, both base64url. */
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export function dashboardTokens(secret: () => Buffer) {
  const tokens = formTokens(secret);
  return {
    issue(): string {
      const value = randomBytes(16).toString('base64url');
      return `${value}.${tokens.issue('dashboard', value)}`;
    },
    /** Whether `token` is one this database's pages were rendered with. */
    verify(token: unknown): boolean {
      const match = typeof token === 'string' ? TOKEN_SHAPE.exec(token) : null;
      return match !== null && tokens.verify('dashboard', match[1]!, match[2]);
    },
  };
}
