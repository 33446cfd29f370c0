// The fetch every generated call goes through (Orval's mutator): the service's base URL and API
// key come from the environment; the answer is Orval's { data, status, headers }, typed per status
// by the generated function that called it.

/** Ends the program on one line: a wrong setting, a refused key, no sandbox. */
export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

// The settings, from the environment, with the local sandbox's defaults (`npm start`, its
// development key), so that a program runs as copied: PARTNER_BASE_URL (default
// http://127.0.0.1:4010), PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the
// time in base 36).
const baseUrl = (process.env.PARTNER_BASE_URL || 'http://127.0.0.1:4010').replace(/\/$/, '');
const apiKey = process.env.PARTNER_API_KEY || 'sandbox-dev-key';
// Unique to each run: it goes into the idempotency keys, the email and the metadata.
const run = process.env.PARTNER_RUN || Date.now().toString(36);
if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(baseUrl))
  fail(`PARTNER_BASE_URL=${process.env.PARTNER_BASE_URL} is not an http(s) URL`);
if (!/^[A-Za-z0-9][\w-]{0,63}$/.test(run))
  fail(`PARTNER_RUN=${run} is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys and an email)`);
export const settings = { baseUrl, apiKey, run };

export async function serviceFetch<T>(url: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('x-service-api-key', apiKey);
  // A refused key, or no sandbox at that address, ends the program on one line.
  const response = await fetch(`${baseUrl}${url}`, { ...init, headers }).catch((error: Error & { cause?: Error }) =>
    fail(
      `Nothing answers at PARTNER_BASE_URL=${baseUrl} (${error.cause?.message ?? error.message}): is the sandbox running (npm start)?`,
    ),
  );
  if (response.status === 401) fail(`PARTNER_API_KEY was refused (401): ${await response.clone().text()}`);
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  return { data, status: response.status, headers: response.headers } as T;
}
