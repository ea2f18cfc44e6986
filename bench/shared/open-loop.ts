// An open-loop arrival schedule: request i is due at start + i / rate, whatever the earlier ones
// are doing, and its latency is measured from that due time, not from when it actually left. A
// closed loop (or a scheduler that times from the send) waits for slow answers before sending the
// next request and so leaves out exactly the requests that would have queued behind them
// ("coordinated omission"); here a stall in the system, or in this process's own event loop,
// shows in every request that was due during it.
//
// Hand-written rather than a load tool: autocannon and its kin run a fixed number of connections
// in a closed loop (their "rate" only paces those connections), and a pay needs a fresh
// Idempotency-Key and its answer's body checked per request anyway.
import { performance } from 'node:perf_hooks';

export interface OpenLoopSchedule {
  ratePerSec: number;
  durationMs: number;
  /**
   * Requests allowed in flight at once. A due request beyond it waits for a slot (its latency
   * still counts from its due time) and is counted in `capHits`: a generous cap is never reached
   * unless the system has stalled.
   */
  maxInFlight: number;
}

export interface OpenLoopRun {
  /** Requests scheduled and sent (rate × duration). */
  sent: number;
  /** Requests that were due while `maxInFlight` were in flight, and waited for a slot. */
  capHits: number;
  /** The most requests in flight at once. */
  maxInFlightSeen: number;
  /** The most a request left after its due time (this process's own lag, slots included). */
  maxSendLagMs: number;
  /** From the first due time to the last answer. */
  durationMs: number;
  /** Date.now() at the first due time and after the last answer, to match events to the window. */
  startedAtMs: number;
  endedAtMs: number;
}

/** How many of `total` requests, one every `intervalMs`, are due `elapsedMs` after the start. */
export function dueCount(elapsedMs: number, intervalMs: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor(elapsedMs / intervalMs) + 1);
}

/**
 * Runs the schedule: `send(i)` for each request when it is due (or when a slot frees), then
 * `onSettled(i, latencyMs, outcome)` with the latency from its due time. Resolves once every
 * request has settled.
 */
export function runOpenLoop<T>(
  schedule: OpenLoopSchedule,
  send: (index: number) => Promise<T>,
  onSettled: (
    index: number,
    latencyMs: number,
    outcome: { ok: true; value: T } | { ok: false; error: unknown },
  ) => void,
): Promise<OpenLoopRun> {
  const intervalMs = 1000 / schedule.ratePerSec;
  const total = Math.max(1, Math.round((schedule.ratePerSec * schedule.durationMs) / 1000));
  const run: OpenLoopRun = {
    sent: 0,
    capHits: 0,
    maxInFlightSeen: 0,
    maxSendLagMs: 0,
    durationMs: 0,
    startedAtMs: Date.now(),
    endedAtMs: 0,
  };
  const start = performance.now();
  const dueAt = (index: number) => start + index * intervalMs;
  let scheduled = 0; // requests whose due time has come (sent or waiting for a slot)
  let inFlight = 0;
  let settled = 0;
  let timer: NodeJS.Timeout | undefined;

  return new Promise((resolve) => {
    const dispatch = (index: number) => {
      inFlight += 1;
      run.sent += 1;
      run.maxInFlightSeen = Math.max(run.maxInFlightSeen, inFlight);
      run.maxSendLagMs = Math.max(run.maxSendLagMs, performance.now() - dueAt(index));
      const settle = (outcome: { ok: true; value: T } | { ok: false; error: unknown }) => {
        onSettled(index, performance.now() - dueAt(index), outcome);
        inFlight -= 1;
        settled += 1;
        if (settled === total) {
          run.durationMs = performance.now() - start;
          run.endedAtMs = Date.now();
          resolve(run);
        } else pump();
      };
      // send() may throw synchronously; it still settles as an error.
      Promise.resolve()
        .then(() => send(index))
        .then(
          (value) => settle({ ok: true, value }),
          (error: unknown) => settle({ ok: false, error }),
        );
    };

    // Sends every request that is due and has a slot, then sleeps until the next due time.
    const pump = () => {
      const due = dueCount(performance.now() - start, intervalMs, total);
      // A newly due request waits when the slots are taken by those in flight and those ahead of it.
      for (; scheduled < due; scheduled++)
        if (inFlight + (scheduled - run.sent) >= schedule.maxInFlight) run.capHits += 1;
      while (run.sent < scheduled && inFlight < schedule.maxInFlight) dispatch(run.sent);
      if (timer === undefined && scheduled < total) {
        timer = setTimeout(
          () => {
            timer = undefined;
            pump();
          },
          Math.max(0, dueAt(scheduled) - performance.now()),
        );
      }
    };
    pump();
  });
}
