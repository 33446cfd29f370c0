// Spreads an amount taken from a capture (a refund, a lost dispute) over the order items.
import type { OrderItem } from './types.js';

/** What is left of an item's captured share. */
export const itemRemaining = (item: OrderItem) => Math.max(0, item.captured - item.refunded - item.disputed);

/**
 * Takes the amount from the items at `first` (in that order), then from the rest in order. Any
 * remainder was captured outside the items (session-level charges such as shipping).
 */
export function takeFromItems(
  items: OrderItem[],
  amount: number,
  into: 'refunded' | 'disputed',
  first: number[] = [],
): void {
  let left = amount;
  for (const index of [...first, ...items.keys()]) {
    const item = items[index]!;
    const take = Math.min(left, itemRemaining(item));
    item[into] += take;
    left -= take;
    if (left === 0) return;
  }
}
