// The fetch every generated call goes through (Orval's mutator): the service's base URL and API
// key come from the environment; the answer is Orval's { data, status, headers }, typed per status
// by the generated function that called it.
const baseUrl = process.env.PARTNER_BASE_URL!;
const apiKey = process.env.PARTNER_API_KEY!;

export async function serviceFetch<T>(url: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('x-service-api-key', apiKey);
  const response = await fetch(`${baseUrl}${url}`, { ...init, headers });
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  return { data, status: response.status, headers: response.headers } as T;
}
