// node-postgres 8 reads sslmode=prefer, require and verify-ca as verify-full (it checks the server's
// certificate and its name), and says so at every start in a process warning of seven lines about
// its next major version, printed before whatever the start says: a URL that cannot connect then
// failed in eight lines instead of one. The URL handed to the driver says verify-full itself: the
// very connection the driver makes of the other three, without the warning. A URL that asks for
// libpq's meaning (uselibpqcompat=true) is handed over as written.

const READ_AS_VERIFY_FULL = ['prefer', 'require', 'verify-ca'];

/** `url` as the driver is given it: its sslmode the one the driver applies. */
export function driverConnectionString(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the WHATWG parser reads: the driver says why, in the start's one line.
    return url;
  }
  const mode = parsed.searchParams.get('sslmode');
  if (mode === null || !READ_AS_VERIFY_FULL.includes(mode) || parsed.searchParams.has('uselibpqcompat')) return url;
  parsed.searchParams.set('sslmode', 'verify-full');
  return parsed.href;
}
