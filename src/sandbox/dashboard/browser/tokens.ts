// The list of payment tokens, each with its card and its letter's expiry.
import { h } from './dom.js';
import { code, when } from './format.js';
import { NEWEST_FIRST, pager } from './pager.js';
import { state } from './state.js';
import { table } from './table.js';
import type { Refresh, TokenList } from './types.js';

type Token = TokenList['payment_tokens'][number];

function cardOf(token: Token): string {
  const card = token.payment_methods?.[0];
  if (!card) return '—';
  const expiry = `${String(card.exp_month ?? '').padStart(2, '0')}/${card.exp_year ?? ''}`;
  return `${String(card.brand ?? 'card')} ending ${card.last4 ?? '····'}, ${expiry}`;
}

export function tokensView(list: TokenList, refresh: Refresh): Node {
  if (list.payment_tokens.length === 0) return h('p', { class: 'empty' }, 'No payment token yet.');
  const rows = list.payment_tokens.map((token) =>
    h(
      'tr',
      {},
      h('td', {}, code(token.payment_token)),
      h('td', {}, token.customer_email ?? '—'),
      h('td', {}, cardOf(token)),
      h('td', {}, when(token.lmn_expires_at)),
      h('td', {}, when(token.created_at)),
    ),
  );
  const { current_page: page, last_page: last } = list.pagination ?? { current_page: 1, last_page: 1 };
  return h(
    'div',
    {},
    table('Payment tokens', ['Token', 'Customer', 'Card', 'Letter expires', 'Created'], rows),
    pager(
      'Pages of payment tokens',
      'tokens',
      NEWEST_FIRST,
      page > 1
        ? () => {
            state.tokensPage = page - 1;
          }
        : undefined,
      page < last
        ? () => {
            state.tokensPage = page + 1;
          }
        : undefined,
      refresh,
    ),
  );
}
