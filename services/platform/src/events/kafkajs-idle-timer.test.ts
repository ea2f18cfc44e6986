import { installKafkajsIdleTimerFix } from './kafkajs-idle-timer';

// The RequestQueue of kafkajs as our fix leaves it (kafkajs-idle-timer.ts): no timer while nothing
// is pending and nothing throttled; a timer while requests wait or a throttle is due.
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (
  opts: Record<string, unknown>,
) => {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  scheduleCheckPendingRequests(): void;
  checkPendingRequests(): void;
};

function idleQueue() {
  const silent = { debug() {}, info() {}, warn() {}, error() {}, namespace: () => silent };
  return new RequestQueue({
    instrumentationEmitter: null,
    maxInFlightRequests: 1,
    requestTimeout: 1000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: silent,
  });
}

beforeAll(() => installKafkajsIdleTimerFix());

it('arms no timer when nothing is pending and nothing is throttled (kafkajs re-armed 1 ms for ever)', () => {
  const queue = idleQueue();
  queue.checkPendingRequests();
  expect(queue.throttleCheckTimeoutId).toBeNull();
});

it('still checks again while requests wait, and when a throttle ends', () => {
  const waiting = idleQueue();
  waiting.pending.push({});
  waiting.throttledUntil = Date.now() + 60_000;
  waiting.scheduleCheckPendingRequests();
  expect(waiting.throttleCheckTimeoutId).not.toBeNull();
  clearTimeout(waiting.throttleCheckTimeoutId!);

  const throttled = idleQueue();
  throttled.throttledUntil = Date.now() + 60_000;
  throttled.scheduleCheckPendingRequests();
  expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  clearTimeout(throttled.throttleCheckTimeoutId!);
});
