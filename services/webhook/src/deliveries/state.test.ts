import fc from 'fast-check';
import {
  DELIVERY_EVENTS,
  DELIVERY_STATUSES,
  type DeliveryEvent,
  type DeliveryStatus,
  isDeliveryStatus,
  isTerminal,
  nextStatus,
  statusesAllowing,
} from './state';

// docs/api/webhooks.md "Delivery states" written out as (from, event, to) triples, independently of
// the module's table.
const SPEC_TRANSITIONS: ReadonlyArray<[DeliveryStatus, DeliveryEvent, DeliveryStatus]> = [
  ['pending', 'claim', 'delivering'],
  ['delivering', 'reclaim', 'delivering'],
  ['delivering', 'succeeded', 'delivered'],
  ['delivering', 'retry', 'pending'],
  ['delivering', 'exhaust', 'exhausted'],
  ['delivering', 'fail', 'failed'],
  ['pending', 'endpoint_disabled', 'failed'],
  ['delivering', 'endpoint_disabled', 'failed'],
  ['delivered', 'replay', 'pending'],
  ['failed', 'replay', 'pending'],
  ['exhausted', 'replay', 'pending'],
];

function specNext(from: DeliveryStatus, event: DeliveryEvent): DeliveryStatus | undefined {
  return SPEC_TRANSITIONS.find(([f, e]) => f === from && e === event)?.[2];
}

const status = fc.constantFrom(...DELIVERY_STATUSES);
const event = fc.constantFrom(...DELIVERY_EVENTS);

describe('delivery state machine (docs/api/webhooks.md "Delivery states")', () => {
  it.each(SPEC_TRANSITIONS)('%s --%s--> %s', (from, ev, to) => {
    expect(nextStatus(from, ev)).toBe(to);
  });

  it('allows nothing outside the spec table, for every status and event', () => {
    for (const from of DELIVERY_STATUSES) {
      for (const ev of DELIVERY_EVENTS)
        expect([from, ev, nextStatus(from, ev)]).toEqual([from, ev, specNext(from, ev)]);
    }
  });

  it('lists the statuses an event is allowed from, for the SQL guard', () => {
    expect(statusesAllowing('claim')).toEqual(['pending']);
    expect(statusesAllowing('reclaim')).toEqual(['delivering']);
    expect(statusesAllowing('endpoint_disabled')).toEqual(['pending', 'delivering']);
    expect(statusesAllowing('replay')).toEqual(['delivered', 'failed', 'exhausted']);
    for (const ev of DELIVERY_EVENTS) {
      expect(statusesAllowing(ev)).toEqual(
        DELIVERY_STATUSES.filter((from) => specNext(from, ev) !== undefined),
      );
    }
  });

  it('refuses a replay of a delivery in flight', () => {
    expect(nextStatus('pending', 'replay')).toBeUndefined();
    expect(nextStatus('delivering', 'replay')).toBeUndefined();
  });

  it('knows the terminal statuses and validates status strings', () => {
    expect(DELIVERY_STATUSES.filter(isTerminal)).toEqual(['delivered', 'failed', 'exhausted']);
    expect(DELIVERY_STATUSES.every(isDeliveryStatus)).toBe(true);
    expect(isDeliveryStatus('Pending')).toBe(false);
    expect(isDeliveryStatus('')).toBe(false);
    expect(isDeliveryStatus('cancelled')).toBe(false);
  });

  it('never leaves the table over random event sequences from any status', () => {
    fc.assert(
      fc.property(status, fc.array(event, { maxLength: 40 }), (start, events) => {
        let current = start;
        for (const ev of events) {
          const next = nextStatus(current, ev);
          if (next !== specNext(current, ev)) return false;
          if (next === undefined) continue;
          if (!isDeliveryStatus(next)) return false;
          if (!statusesAllowing(ev).includes(current)) return false;
          current = next;
        }
        return true;
      }),
    );
  });

  it('replays only from terminal statuses, and a terminal status moves only by replay', () => {
    fc.assert(
      fc.property(status, event, (from, ev) => {
        const next = nextStatus(from, ev);
        if (ev === 'replay') return (next !== undefined) === isTerminal(from);
        return !isTerminal(from) || next === undefined;
      }),
    );
  });

  it('reaches a terminal status only through succeeded, exhaust, fail or endpoint_disabled', () => {
    fc.assert(
      fc.property(status, event, (from, ev) => {
        const next = nextStatus(from, ev);
        if (next === undefined || !isTerminal(next)) return true;
        return ['succeeded', 'exhaust', 'fail', 'endpoint_disabled'].includes(ev);
      }),
    );
  });
});
