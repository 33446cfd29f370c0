// The header the page's Resend carries its anti-forgery token in: one name for the route that
// checks it (page-token.ts) and for the page's script that sends it (browser/resend.ts).
export const DASHBOARD_TOKEN_HEADER = 'x-dashboard-token';
