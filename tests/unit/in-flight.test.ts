// The attempts open at each endpoint (delivery/in-flight.ts): what the listen command line skips when it
// chooses what to send, and what the queue counts against an endpoint's slots.
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/sandbox/delivery/in-flight.js';

const settled = Promise.resolve();

describe('the attempts in flight', () => {
  it("names each endpoint's deliveries in flight, until each is removed", () => {
    const inFlight = new InFlight();
    expect(inFlight.deliveryIds('we_1')).toEqual([]);
    inFlight.add('we_1', 7, settled);
    inFlight.add('we_1', 9, settled);
    inFlight.add('we_2', 8, settled);
    expect(inFlight.deliveryIds('we_1')).toEqual([7, 9]);
    expect(inFlight.deliveryIds('we_2')).toEqual([8]);
    inFlight.remove('we_1', 7);
    expect(inFlight.deliveryIds('we_1')).toEqual([9]);
  });
});
