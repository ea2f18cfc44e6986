import type { Logger } from '@qr-payout/platform/log';
import type pg from 'pg';
import { listenToChannel } from './listener';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './relay';
import { createOutboxStore, outboxChannel } from './store';

export type OutboxListenerOptions = {
  /** For the dedicated LISTEN connection (the pool's connections are shared, LISTEN is per session). */
  connectionString: string;
  /** The schema of outbox_events: its NOTIFY channel is the one appendTransactionEvent uses. */
  schema: string;
  logger: Logger;
  /**
   * Called with the id of each transaction whose terminal transition (and outbox event) just
   * committed, in any replica; with undefined after each (re)connect, when notifications may
   * have been missed.
   */
  onWake: (transactionId: string | undefined) => void;
};

/** LISTENs on the schema's outbox channel (outbox/store.ts appendTransactionEvent) until stopped. */
export function listenToOutbox(opts: OutboxListenerOptions): { stop(): Promise<void> } {
  const listener = listenToChannel({
    connectionString: opts.connectionString,
    channel: outboxChannel(opts.schema),
    logger: opts.logger,
    // An empty payload: a row written by a version that sent none; it still means "look".
    onWake: (payload) => opts.onWake(payload || undefined),
  });
  return { stop: () => listener.close() };
}

export type RunOutboxRelayOptions = Omit<OutboxRelayOptions, 'store'> &
  Omit<OutboxListenerOptions, 'onWake'> & {
    pool: pg.Pool;
    /** Also told each settled transaction's id the channel carries (see listenToOutbox). */
    onSettled?: (transactionId: string) => void;
  };

export type RunningOutboxRelay = {
  readonly relay: OutboxRelay;
  /** Stops listening, then waits for the batch in flight to be published and marked. */
  stop(): Promise<void>;
};

/** Starts the relay loop woken by NOTIFY on the schema's outbox channel, polling as a safety net. */
export function runOutboxRelay(opts: RunOutboxRelayOptions): RunningOutboxRelay {
  const { pool, connectionString, schema, onSettled, ...relayOptions } = opts;
  const relay = createOutboxRelay({ ...relayOptions, store: createOutboxStore(pool) });
  const listener = listenToOutbox({
    connectionString,
    schema,
    logger: opts.logger,
    onWake: (transactionId) => {
      relay.wake();
      if (transactionId) onSettled?.(transactionId);
    },
  });
  relay.start();
  let stopping: Promise<void> | undefined;
  return {
    relay,
    stop() {
      stopping ??= listener.stop().then(() => relay.stop());
      return stopping;
    },
  };
}
