// list_payment_tokens: what the query asks for, as a filter the store runs in SQL. Pure.
import { MAX_SEARCH_LENGTH, tokenSearchRefusals } from './search-bounds.js';

export interface TokenListQuery {
  email?: string;
  name?: string;
  card_expires_before?: string;
  lmn_expires_before?: string;
}

export interface TokenListFilter {
  /** "Includes", case-insensitively; as the caller wrote it, so that a refusal quotes it so. */
  email?: string;
  name?: string;
  /** YYYY-MM, on or before. */
  cardExpiresBefore?: string;
  /** YYYY-MM-DD, on or before. */
  lmnExpiresBefore?: string;
}

export function tokenListFilter(query: TokenListQuery): TokenListFilter {
  for (const parameter of ['email', 'name'] as const) {
    const value = query[parameter];
    if (value !== undefined && [...value].length > MAX_SEARCH_LENGTH) throw tokenSearchRefusals.tooLong(parameter);
  }
  return {
    ...(query.email !== undefined ? { email: query.email } : {}),
    ...(query.name !== undefined ? { name: query.name } : {}),
    ...(query.card_expires_before !== undefined ? { cardExpiresBefore: query.card_expires_before } : {}),
    ...(query.lmn_expires_before !== undefined ? { lmnExpiresBefore: query.lmn_expires_before } : {}),
  };
}
