import type * as store from './store';

// Successful attempts are the common case and need no decision per row: the worker records them
// in groups (one statement for up to MAX_BATCH deliveries, at most WINDOW_MS after the first),
// which is what lets one PostgreSQL keep up with many receivers. Failures keep their own
// statement (finishAttempt: schedule, exhaustion, auto-disable).

const MAX_BATCH = 64;
const WINDOW_MS = 2;

type Waiting = { result: store.AttemptResult; done: (owned: boolean) => void; fail: (err: unknown) => void };

export type DeliveredBatcher = {
  /** Resolves once recorded: true when the lease still owned the delivery. */
  record(result: store.AttemptResult): Promise<boolean>;
};

export function createDeliveredBatcher(
  deliveries: Pick<store.DeliveryStore, 'finishDelivered'>,
): DeliveredBatcher {
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    try {
      const owned = await deliveries.finishDelivered(batch.map((w) => w.result));
      for (const w of batch) w.done(owned.has(w.result.deliveryId));
    } catch (err) {
      for (const w of batch) w.fail(err);
    }
  }

  return {
    record(result) {
      return new Promise<boolean>((done, fail) => {
        waiting.push({ result, done, fail });
        if (waiting.length >= MAX_BATCH) void flush();
        else timer ??= setTimeout(() => void flush(), WINDOW_MS);
      });
    },
  };
}
