// How `listen` and `trigger` fetch from --sandbox. The sandbox may be another machine's, or anyone
// in the middle of a plain-HTTP --sandbox, so:
// - a 3xx is handed back as the answer it is, never followed: fetch follows a redirect by default,
//   keeping the API key header, the method and the body, so a sandbox could point them at any
//   address this machine reaches and read back its answer (SandboxApi.ok refuses the 3xx);
// - an answer is read to MOST_ANSWER_BYTES at most: one without end would fill this machine's memory.

/**
 * The most an answer of the sandbox may hold. Its largest is a claim of 8 deliveries, each a signed
 * event whose request the sandbox took within its 256 KiB body limit: a few MiB at most.
 */
export const MOST_ANSWER_BYTES = 16 * 1024 * 1024;

/** An answer past MOST_ANSWER_BYTES: no sandbox's (SandboxApi.ok says so, naming the call). */
export class AnswerTooLarge extends Error {
  constructor(readonly status: number) {
    super(`an answer of more than ${MOST_ANSWER_BYTES / 1024 / 1024} MiB`);
  }
}

/** The statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * fetch, with the redirect mode 'manual' whatever the request says, and the answer's body read whole, within bounds.
 */
export async function fetchFromSandbox(request: Request): Promise<Response> {
  const response = await globalThis.fetch(request, { redirect: 'manual' });
  if (response.body === null) return response;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MOST_ANSWER_BYTES) {
      // Nothing more is read: the connection goes.
      await reader.cancel();
      throw new AnswerTooLarge(response.status);
    }
    chunks.push(read.value);
  }
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  return new Response(NO_BODY.has(response.status) ? null : Buffer.concat(chunks), init);
}
