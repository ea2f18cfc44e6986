// kafkajs 2.2.4 re-arms a 1 ms timer for ever on every broker connection that has nothing to send
// (docs/architecture.md "The outbox and Kafka"). Its RequestQueue schedules a check of
// pending requests at `throttledUntil - Date.now()`; unthrottled, `throttledUntil` is -1, the delay
// is negative, Node runs it after 1 ms, and the check schedules the next one. Each payout and
// webhook process spent about 16 ms of CPU a second on it with no load (bench/README.md
// "scale-out"), and Node 24 warns about the negative delay (TimeoutNegativeWarning). The check has
// nothing to do when no request is pending and no throttle is due: pushing a request and answering
// one call the check again, so no request waits on a timer that is not armed.
type RequestQueueInternals = {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
};

// kafkajs's own pending-request interval, used when requests wait and no throttle is set.
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

let installed = false;

/** Replaces RequestQueue.scheduleCheckPendingRequests once per process; idempotent. */
export function installKafkajsIdleTimerFix(): void {
  if (installed) return;
  installed = true;
  // kafkajs has no exports map: its internal module is reachable, and is CommonJS like us.
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueueInternals;
  };
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(
    this: RequestQueueInternals,
  ) {
    if (this.throttleCheckTimeoutId) return;
    const throttledFor = this.throttledUntil - Date.now();
    if (this.pending.length === 0 && throttledFor <= 0) return;
    const delay = throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL_MS;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, delay);
  };
}
