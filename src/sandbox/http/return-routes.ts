// The return pages as routes: GET /return/success and /return/failure. Like the hosted pages, they
// carry no API key and find a session or a provision token request by its id in any channel (the
// id, a random UUID, is what lets a customer in); unlike them, they change nothing.
//
// Which one: `?payment_session_id=` (the session's success_url and failure_url template it), else
// `?provision_token_request_id=`, else the hosted page the browser comes from. A token's setup
// cannot template its URLs (the reference templates a session's only), so its page learns the
// request from the Referer, which the hosted pages send to their own origin (Referrer-Policy:
// same-origin): a return page on the sandbox is that origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  malformedIdPage,
  noIdPage,
  provisionReturnPage,
  RETURN_PATHS,
  sessionReturnPage,
  unknownIdPage,
  type ReturnOutcome,
  type ReturnPage,
} from '../checkout/return-pages.js';
import { SITE_PAGE_POLICY } from '../checkout/site-style.js';
import type { SandboxStore } from '../store/store.js';
import { registerPageHeaders } from './page-headers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Query = Record<string, string | string[] | undefined>;
type Target = { kind: 'session' | 'provision'; id: unknown; name: string } | undefined;

/** The hosted page a Referer names: `/checkout/{id}` or `/checkout/setup/{id}`. */
function hostedPageOf(referer: string | undefined): Target {
  if (referer === undefined) return undefined;
  let pathname: string;
  try {
    pathname = new URL(referer).pathname;
  } catch {
    return undefined;
  }
  const found = /^\/checkout\/(setup\/)?([^/]+)$/.exec(pathname);
  if (!found) return undefined;
  return found[1]
    ? { kind: 'provision', id: found[2], name: 'provision_token_request_id' }
    : { kind: 'session', id: found[2], name: 'payment_session_id' };
}

function targetOf(request: FastifyRequest): Target {
  const query = (request.query ?? {}) as Query;
  if (query.payment_session_id !== undefined)
    return { kind: 'session', id: query.payment_session_id, name: 'payment_session_id' };
  if (query.provision_token_request_id !== undefined)
    return { kind: 'provision', id: query.provision_token_request_id, name: 'provision_token_request_id' };
  return hostedPageOf(request.headers.referer);
}

export function registerReturnRoutes(app: FastifyInstance, store: SandboxStore, publicUrl: () => string): void {
  const send = (reply: FastifyReply, page: ReturnPage) =>
    reply
      .code(page.status)
      .headers({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': SITE_PAGE_POLICY })
      .send(page.html);

  async function render(outcome: ReturnOutcome, target: Target): Promise<ReturnPage> {
    if (!target) return noIdPage(outcome, publicUrl());
    const { kind, id, name } = target;
    if (typeof id !== 'string' || !UUID.test(id)) return malformedIdPage(outcome, name);
    if (kind === 'session') {
      const session = await store.sessions.getForCustomer(id);
      return session ? sessionReturnPage(outcome, session) : unknownIdPage(outcome, 'payment session', id);
    }
    const provision = await store.provisionRequests.getForCustomer(id);
    return provision ? provisionReturnPage(outcome, provision) : unknownIdPage(outcome, 'provision token request', id);
  }

  void app.register(async (pages) => {
    registerPageHeaders(pages, { 'x-frame-options': 'DENY' });
    for (const outcome of ['success', 'failure'] as const) {
      pages.get(RETURN_PATHS[outcome], async (request, reply) => send(reply, await render(outcome, targetOf(request))));
    }
  });
}
