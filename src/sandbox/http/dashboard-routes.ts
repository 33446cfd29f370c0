// The dashboard (openapi/sandbox.yaml, the Dashboard tag): its page, which needs no key and holds
// no data, and its Resend, which runs the redeliver helper's operation (app/redeliver.ts) for the
// page alone. Neither is readable from another origin: the CORS headers the API's answers carry
// are taken off here. Resend needs the key (route config), then a request from the page's own
// origin, then the page's token, in that order, before it reads anything.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { dashboardPage, dashboardPolicy } from '../dashboard/page.js';
import { dashboardScript } from '../dashboard/script.js';
import { DASHBOARD_TOKEN_HEADER, dashboardTokens } from '../dashboard/page-token.js';
import { redeliverEvent } from '../app/redeliver.js';
import type { SandboxStore } from '../store/store.js';
import { channelOf } from './auth.js';
import { pageSecretOnReady } from './page-secret.js';
import { registerBodyDrain } from './body-parsing.js';
import { HttpRefusal, methodNotAllowed } from './errors.js';
import { fromAnotherSite } from './form-origin.js';
import { registerPageHeaders } from './page-headers.js';

const forbidden = (message: string) => new HttpRefusal(403, 'Forbidden', message);

/**
 * Whether a POST comes from a page of the origin the sandbox serves: a browser sends `Origin` on
 * every fetch that is not a GET, and `Sec-Fetch-Site` says whether the page is of that origin.
 */
function fromOwnPage(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  return headers.origin !== undefined && (site === undefined || site === 'same-origin') && !fromAnotherSite(headers);
}

/** `docs`: whether the sandbox serves the docs site (the page's bar links it). */
export function registerDashboardRoutes(app: FastifyInstance, store: SandboxStore, options: { docs: boolean }): void {
  const tokens = dashboardTokens(pageSecretOnReady(app, store));

  void app.register(async (dashboard) => {
    registerPageHeaders(dashboard, { 'x-frame-options': 'DENY' });
    // Resend reads no body: whatever is sent is drained unread, never parsed.
    registerBodyDrain(dashboard);

    // Relative to the page, every link works from /dashboard/ only.
    dashboard.get('/dashboard', async (_request, reply) => reply.redirect('/dashboard/', 308));
    dashboard.get('/dashboard/', async (_request, reply) => {
      const script = await dashboardScript();
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', dashboardPolicy(script))
        .send(dashboardPage(tokens.issue(), options.docs, script));
    });

    dashboard.post<{ Params: { event_id: string } }>(
      '/dashboard/outbox/:event_id/redeliver',
      { config: { requiresKey: true } },
      async (request, reply) => {
        const channel = channelOf(request);
        if (!fromOwnPage(request.headers))
          throw forbidden("Resend is taken only from the dashboard's own page (its Origin); nothing was sent.");
        if (!tokens.verify(request.headers[DASHBOARD_TOKEN_HEADER])) {
          throw forbidden(
            `Resend needs the ${DASHBOARD_TOKEN_HEADER} of a dashboard page: reload /dashboard/ and try again; ` +
              `nothing was sent.`,
          );
        }
        // The helper's own operation: the same redelivery, the same answer.
        const answer = await store.write(async () =>
          redeliverEvent(store, { channel, now: await store.clock.now(channel) }, request.params.event_id),
        );
        return reply.code(200).send(answer);
      },
    );
    // A preflight of Resend is refused here, without the CORS headers the API's preflights get:
    // no page of another origin may send it.
    dashboard.options('/dashboard/outbox/:event_id/redeliver', async () => {
      throw methodNotAllowed('OPTIONS', ['POST']);
    });
  });
}
