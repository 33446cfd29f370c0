// The attempts open at each endpoint: sent, not yet recorded. The queue counts them against the
// endpoint's slots, and waits for them when it stops (their leases keep other claims off them); the
// listen command line skips them when it chooses what to send.
import { freeSlots } from '../domain/delivery-slots.js';

interface Flight {
  /** The attempt, through its record; it settles, never rejects. */
  run: Promise<void>;
  /** performance.now() when it was sent. */
  startedAt: number;
}

export class InFlight {
  /** Per endpoint id, its open attempts by delivery id; an endpoint with none has no entry. */
  private readonly byEndpoint = new Map<string, Map<number, Flight>>();

  /** The deliveries of the endpoint in flight: not to be claimed again. */
  deliveryIds(endpointId: string): number[] {
    return [...(this.byEndpoint.get(endpointId)?.keys() ?? [])];
  }

  /** How many more deliveries the endpoint may be sent now (domain/delivery-slots.ts). */
  freeSlots(endpointId: string, now: number = performance.now()): number {
    const flights = this.byEndpoint.get(endpointId)?.values() ?? [];
    return freeSlots(
      [...flights].map((flight) => flight.startedAt),
      now,
    );
  }

  add(endpointId: string, deliveryId: number, run: Promise<void>, startedAt: number = performance.now()): void {
    let flights = this.byEndpoint.get(endpointId);
    if (!flights) {
      flights = new Map();
      this.byEndpoint.set(endpointId, flights);
    }
    flights.set(deliveryId, { run, startedAt });
  }

  remove(endpointId: string, deliveryId: number): void {
    const flights = this.byEndpoint.get(endpointId);
    flights?.delete(deliveryId);
    if (flights?.size === 0) this.byEndpoint.delete(endpointId);
  }

  /** Every open attempt, to wait for. */
  runs(): Promise<void>[] {
    return [...this.byEndpoint.values()].flatMap((flights) => [...flights.values()].map((flight) => flight.run));
  }
}
