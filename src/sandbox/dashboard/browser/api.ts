// Requests to the sandbox's own origin, with the key in a header, never in a URL.
import { state } from './state.js';

/** A refused request, with the status the sandbox answered. */
export interface Failure extends Error {
  status?: number;
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = { 'x-service-api-key': state.key, ...(init.headers as Record<string, string> | undefined) };
  const response = await fetch(path, { ...init, headers, cache: 'no-store', redirect: 'error' });
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (!response.ok) {
    throw Object.assign(new Error(body?.message ?? `HTTP ${response.status}`), { status: response.status }) as Failure;
  }
  return body as T;
}
