// The delivery state machine of docs/api/webhooks.md "Delivery states". This table is the one rule:
// the store guards each UPDATE with `status = ANY(statusesAllowing(event))`, so SQL and code cannot
// disagree.

import { DELIVERY_STATUSES, type DeliveryStatusName } from '@qr-payout/platform/vocabulary';

// The names are the platform vocabulary's one list.
export { DELIVERY_STATUSES };
export type DeliveryStatus = DeliveryStatusName;

export const DELIVERY_EVENTS = [
  'claim',
  'reclaim',
  'succeeded',
  'retry',
  'exhaust',
  'fail',
  'endpoint_disabled',
  'replay',
] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

const TRANSITIONS: {
  readonly [E in DeliveryEvent]: Readonly<Partial<Record<DeliveryStatus, DeliveryStatus>>>;
} = {
  // A worker takes a due delivery under a lease.
  claim: { pending: 'delivering' },
  // The lease lapsed (the worker crashed or stalled): another worker takes the delivery again.
  reclaim: { delivering: 'delivering' },
  // A 2xx answer.
  succeeded: { delivering: 'delivered' },
  // A non-2xx answer or a network error with attempts left (docs/api/webhooks.md "Retries").
  retry: { delivering: 'pending' },
  // The last allowed attempt failed.
  exhaust: { delivering: 'exhausted' },
  // Permanent: the egress guard refused the target, or the endpoint was gone or disabled at send time.
  fail: { delivering: 'failed' },
  // Auto-disable or an operator disable fails the endpoint's deliveries still in flight.
  endpoint_disabled: { pending: 'failed', delivering: 'failed' },
  // docs/api/webhooks.md "Delivery states": only a finished delivery is replayed; one in flight is
  // refused (DeliveryInFlight).
  replay: { delivered: 'pending', failed: 'pending', exhausted: 'pending' },
};

const TERMINAL_STATUSES: ReadonlySet<DeliveryStatus> = new Set(['delivered', 'failed', 'exhausted']);

/** The status `event` moves a delivery in `from` to, or undefined when the event is not allowed there. */
export function nextStatus(from: DeliveryStatus, event: DeliveryEvent): DeliveryStatus | undefined {
  return TRANSITIONS[event][from];
}

/** Every status `event` is allowed from: the store's `WHERE status = ANY($n)` guard. */
export function statusesAllowing(event: DeliveryEvent): DeliveryStatus[] {
  return DELIVERY_STATUSES.filter((status) => TRANSITIONS[event][status] !== undefined);
}

/** Delivered, failed and exhausted: nothing moves them but a replay. */
export function isTerminal(status: DeliveryStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export function isDeliveryStatus(s: string): s is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(s);
}
