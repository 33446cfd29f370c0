// How `listen` and `trigger` fetch from --sandbox: a 3xx is handed back as the answer it is, never
// followed. fetch follows a redirect by default, keeping the API key header, the method and the
// body: a sandbox, or anyone in the middle of a plain-HTTP --sandbox, could point them at any
// address this machine reaches and read back its answer (SandboxApi.ok refuses the 3xx).

/** fetch, with the redirect mode forced to 'manual' whatever the request says. */
export function fetchFromSandbox(request: Request): Promise<Response> {
  return globalThis.fetch(request, { redirect: 'manual' });
}
