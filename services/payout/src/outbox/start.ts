import type pg from 'pg';
import { listenToChannel } from './listener';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './relay';
import { createOutboxStore, outboxChannel } from './store';

export type RunOutboxRelayOptions = Omit<OutboxRelayOptions, 'store'> & {
  pool: pg.Pool;
  /** For the dedicated LISTEN connection (the pool's connections are shared, LISTEN is per session). */
  connectionString: string;
  /** The schema of outbox_events: its NOTIFY channel is the one appendTransactionEvent uses. */
  schema: string;
};

export type RunningOutboxRelay = {
  readonly relay: OutboxRelay;
  /** Stops listening, then waits for the batch in flight to be published and marked. */
  stop(): Promise<void>;
};

/** Starts the relay loop woken by NOTIFY on the schema's outbox channel, polling as a safety net. */
export function runOutboxRelay(opts: RunOutboxRelayOptions): RunningOutboxRelay {
  const { pool, connectionString, schema, ...relayOptions } = opts;
  const relay = createOutboxRelay({ ...relayOptions, store: createOutboxStore(pool) });
  const listener = listenToChannel({
    connectionString,
    channel: outboxChannel(schema),
    logger: opts.logger,
    onWake: () => relay.wake(),
  });
  relay.start();
  let stopping: Promise<void> | undefined;
  return {
    relay,
    stop() {
      stopping ??= listener.close().then(() => relay.stop());
      return stopping;
    },
  };
}
