// Who is woken when a delivery is queued: the dispatcher and the listeners' waiting claims. It is
// made before the store and given to it (createStore's `wakeUp`); the store tells it inside the
// writing transaction, so each waker must only schedule its work, never do it there.

export interface DeliveryWakeUp {
  /** A delivery was queued (called by the store, inside the writing transaction). */
  queued(): void;
  /** Wakes `waker` on each queued delivery from now on; returns what stops it. */
  add(waker: () => void): () => void;
}

export function deliveryWakeUp(): DeliveryWakeUp {
  const wakers = new Set<() => void>();
  return {
    queued() {
      for (const waker of wakers) waker();
    },
    add(waker) {
      wakers.add(waker);
      return () => wakers.delete(waker);
    },
  };
}
