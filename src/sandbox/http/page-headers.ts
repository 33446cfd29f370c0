// The headers of every answer of the pages a person opens (the hosted checkout, the dashboard, the
// return pages): never cached (a re-shown form carries the card, a page carries its form's token),
// no referrer to another origin, no content sniffing, and not readable from another origin,
// whatever --cors-origin allows the API. `same-origin`, not `no-referrer`: under no-referrer a
// browser sends the page's own form with `Origin: null`, which the origin check cannot tell from a
// foreign page's.
import type { FastifyInstance } from 'fastify';

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/**
 * Adds the page headers to every answer of `scope`, with `extra` (`x-frame-options` where no page of the scope may be
 * framed).
 */
export function registerPageHeaders(scope: FastifyInstance, extra: Readonly<Record<string, string>> = {}): void {
  scope.addHook('onSend', async (_request, reply) => {
    reply
      .headers({ ...PAGE_HEADERS, ...extra })
      .removeHeader('access-control-allow-origin')
      .removeHeader('access-control-expose-headers');
  });
}
