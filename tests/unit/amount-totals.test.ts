// The total of an item: quantity × price + its additional charges + its discounts.
import { describe, expect, it } from 'vitest';
import { expectedTotal, itemTotal, storedItemTotal } from '../../src/sandbox/domain/amounts.js';

describe('item totals', () => {
  it("adds an item's additional charges and discounts to quantity × price", () => {
    expect(
      itemTotal({ quantity: 2, price: 300, amount_details: { total_additional_charges: 50, total_discounts: -20 } }),
    ).toBe(630);
    expect(storedItemTotal({ quantity: 2, price: 300, total_additional_charges: 50, total_discounts: -20 })).toBe(630);
  });

  it("adds the session's charges and discounts to the items' totals", () => {
    expect(
      expectedTotal({
        amount_details: { total_additional_charges: 100, total_discounts: -10 },
        order_items: [
          { name: 'A', quantity: 1, price: 200, amount_details: { total_additional_charges: 5, total_discounts: 0 } },
        ],
      }),
    ).toBe(295);
  });
});
