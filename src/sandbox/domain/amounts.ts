// The total_amount arithmetic of create_payment_session.
import type { CreateSessionRequest } from './types.js';

type ItemInput = CreateSessionRequest['order_items'][number];

/** quantity × price + the item's additional charges + its discounts. */
export function itemTotal(item: Pick<ItemInput, 'quantity' | 'price' | 'amount_details'>): number {
  return (
    item.quantity * item.price + item.amount_details.total_additional_charges + item.amount_details.total_discounts
  );
}

/** The total the reference requires: session charges + session discounts + every item's total. */
export function expectedTotal(request: Pick<CreateSessionRequest, 'amount_details' | 'order_items'>): number {
  return (
    request.amount_details.total_additional_charges +
    request.amount_details.total_discounts +
    request.order_items.reduce((sum, item) => sum + itemTotal(item), 0)
  );
}

/** The same total, for an item as the sandbox stores it. */
export function storedItemTotal(item: {
  quantity: number;
  price: number;
  total_additional_charges: number;
  total_discounts: number;
}): number {
  return item.quantity * item.price + item.total_additional_charges + item.total_discounts;
}
