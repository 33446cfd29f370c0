// The hosted pages, as routes: each GET renders a page; each POST reads the customer's form, calls
// its operation (app/hosted-checkout.ts, which acts through the same functions as the /sandbox/v1/
// helpers, in one transaction), and renders what it led to, or redirects. A page carries no API
// key; a session or request id is found in any channel, as a redirect_url is. A form that does not
// check out is shown again with its errors (400). A form from another site, or without its page's
// token, is refused (403) before anything is read.
// Whether a page is in iframe mode, and who may frame it, comes from its session or provision
// request (checkout/page-exits.ts), never from the URL.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FormValues } from '../checkout/customer-form.js';
import { FORM_TOKEN_FIELD, formTokens, type FormPurpose } from '../checkout/form-token.js';
import { endPage, page, type Flow, type FormTarget, type Page } from '../checkout/layout.js';
import { securityHeaders } from '../checkout/content-security.js';
import { NO_EXITS, provisionExits, sessionExits, type PageExits } from '../checkout/page-exits.js';
import { crossSitePage, staleFormPage } from '../checkout/refusal-pages.js';
import { checkoutFormPage, closedPage, confirmPage, timedOutPage } from '../checkout/session-pages.js';
import { setupFinishedPage, setupFormPage } from '../checkout/setup-pages.js';
import { escapeHtml } from '../checkout/page.js';
import { provisionUrl } from '../checkout/urls.js';
import type { IdSource } from '../ids.js';
import type { SandboxStore } from '../store/store.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { registerPageHeaders } from './page-headers.js';
import { pageSecretOnReady } from './page-secret.js';
import { fromAnotherSite } from './form-origin.js';
import { DATABASE_RETRY_AFTER_SECONDS, HttpRefusal } from './errors.js';
import { itemEligibility, submitCheckout, submitSetup } from '../app/hosted-checkout.js';

/** Form bodies are small: the survey and a card. */
const FORM_LIMIT_BYTES = 16 * 1024;

/** A page, with the headers its session or request decides (NO_EXITS: a page of neither). */
const send = (reply: FastifyReply, rendered: Page, exits: PageExits) =>
  reply
    .code(rendered.status)
    .headers(securityHeaders(rendered, exits))
    .type('text/html; charset=utf-8')
    .send(rendered.html);
const notFoundPage = (what: string) => page('Page not found', `<p>No ${escapeHtml(what)}.</p>`, 404);
/** The form's fields; only text values count (a form sends nothing else). */
const valuesOf = (body: unknown): FormValues =>
  Object.fromEntries(
    Object.entries(body && typeof body === 'object' ? body : {}).filter(([, value]) => typeof value === 'string'),
  ) as FormValues;

/** The page's own address, for its form: built from the route, never from the request line. */
const pathOf = (prefix: string, id: string) => `${prefix}${encodeURIComponent(id)}`;

/** A redirect target as a header can carry it: the URL the session was checked with, percent-encoded. */
const headerUrl = (url: string) => new URL(url).href;

/** The end of a flow: a redirect, or in iframe mode the parent window's message. */
function finish(reply: FastifyReply, exits: PageExits, success: boolean, redirectUrl: string, flow: Flow) {
  if (exits.iframe) return send(reply, endPage(success, headerUrl(redirectUrl), flow), exits);
  return reply.code(303).header('location', headerUrl(redirectUrl)).send();
}

export function registerCheckoutRoutes(app: FastifyInstance, store: SandboxStore, ids: IdSource): void {
  const tokens = formTokens(pageSecretOnReady(app, store));
  /** A page's form: sent back to the page's own address, with the page's token. */
  const formOf = (purpose: FormPurpose, prefix: string, id: string): FormTarget => ({
    action: pathOf(prefix, id),
    token: tokens.issue(purpose, id),
  });
  /** The stale-form page when the form does not carry its page's token; nothing else is read first. */
  const tokenRefusal = (purpose: FormPurpose, prefix: string, id: string, values: FormValues): Page | undefined =>
    tokens.verify(purpose, id, values[FORM_TOKEN_FIELD]) ? undefined : staleFormPage(pathOf(prefix, id));

  void app.register(async (pages) => {
    // Framed or not, each page says with its own security headers (content-security.ts).
    registerPageHeaders(pages);
    // A page's POST comes from the page itself, and takes a form, and only a form; anything else is
    // answered with a page too.
    pages.addHook('preValidation', async (request, reply) => {
      if (request.method !== 'POST') return;
      if (fromAnotherSite(request.headers)) return send(reply, crossSitePage(), NO_EXITS);
      if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return send(
          reply,
          page('Unsupported form', '<p>Send the form as application/x-www-form-urlencoded.</p>', 415),
          NO_EXITS,
        );
      }
    });
    pages.setErrorHandler(async (error: Error & { statusCode?: number }, _request, reply) => {
      // A host the sandbox does not answer to (allowed-hosts.ts) is refused before the page runs.
      if (error instanceof HttpRefusal && error.status === 403) {
        return send(reply, page('Not served under this name', `<p>${escapeHtml(error.message)}</p>`, 403), NO_EXITS);
      }
      // The database is down or restarting: the customer is told to try again shortly, and so is a browser.
      if (isStoreUnavailable(error)) {
        reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
        return send(
          reply,
          page('Try again in a moment', '<p>The page cannot be served right now. Reload it in a few seconds.</p>', 503),
          NO_EXITS,
        );
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      return send(
        reply,
        page(
          status === 413 ? 'Form too large' : 'Something went wrong',
          `<p>${status === 413 ? 'This form is too large.' : 'The page could not be handled.'}</p>`,
          status,
        ),
        NO_EXITS,
      );
    });
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    pages.get<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
      const session = await store.sessions.getForCustomer(request.params.id);
      if (!session) return send(reply, notFoundPage(`payment session ${request.params.id}`), NO_EXITS);
      const exits = sessionExits(session);
      if (session.status === 'canceled') return send(reply, timedOutPage(session), exits);
      if (session.status !== 'pending') return send(reply, closedPage(session), exits);
      return send(
        reply,
        checkoutFormPage(
          session,
          await itemEligibility(store, session),
          {},
          {},
          formOf('checkout', '/checkout/', session.id),
        ),
        exits,
      );
    });

    pages.post<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
      const values = valuesOf(request.body);
      const refused = tokenRefusal('checkout', '/checkout/', request.params.id, values);
      if (refused) return send(reply, refused, NO_EXITS);
      const form = formOf('checkout', '/checkout/', request.params.id);
      const submit = await submitCheckout(store, ids, request.params.id, values);
      if (submit.outcome === 'not_found')
        return send(reply, notFoundPage(`payment session ${request.params.id}`), NO_EXITS);
      const exits = sessionExits(submit.session);
      switch (submit.outcome) {
        case 'timed_out':
          return send(reply, timedOutPage(submit.session), exits);
        case 'closed':
          return send(reply, closedPage(submit.session), exits);
        case 'confirm':
          return send(reply, confirmPage(submit.session, submit.values, submit.last4, form), exits);
        case 'finished':
          return finish(reply, exits, submit.success, submit.url, 'payment');
        case 'form': {
          const status = Object.keys(submit.errors).length > 0 ? 400 : 200;
          return send(
            reply,
            checkoutFormPage(submit.session, submit.eligibility, submit.values, submit.errors, form, status),
            exits,
          );
        }
      }
    });

    pages.get<{ Params: { id: string } }>('/checkout/setup/:id', async (request, reply) => {
      const provision = await store.provisionRequests.getForCustomer(request.params.id);
      if (!provision) return send(reply, notFoundPage(`provision token request ${request.params.id}`), NO_EXITS);
      const exits = provisionExits(provision);
      if (provision.status !== 'awaiting_customer')
        return send(reply, setupFinishedPage(provision, provision.redirect_url ?? provisionUrl('', provision)), exits);
      return send(reply, setupFormPage(provision, {}, {}, formOf('setup', '/checkout/setup/', provision.id)), exits);
    });

    pages.post<{ Params: { id: string } }>('/checkout/setup/:id', async (request, reply) => {
      const values = valuesOf(request.body);
      const refused = tokenRefusal('setup', '/checkout/setup/', request.params.id, values);
      if (refused) return send(reply, refused, NO_EXITS);
      const form = formOf('setup', '/checkout/setup/', request.params.id);
      const submit = await submitSetup(store, ids, request.params.id, values);
      if (submit.outcome === 'not_found')
        return send(reply, notFoundPage(`provision token request ${request.params.id}`), NO_EXITS);
      const exits = provisionExits(submit.provision);
      switch (submit.outcome) {
        case 'done_before':
          return send(reply, setupFinishedPage(submit.provision, submit.provision.redirect_url ?? ''), exits);
        case 'form':
          return send(reply, setupFormPage(submit.provision, submit.values, submit.errors, form, 400), exits);
        case 'finished':
          return finish(reply, exits, submit.success, submit.url, 'setup');
      }
    });
  });
}
