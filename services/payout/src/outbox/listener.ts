import { pgSessionDeadlines } from '@qr-payout/platform/db';
import type { Logger } from '@qr-payout/platform/log';
import pg from 'pg';
import { outboxChannel } from './store';

export type ChannelListenerOptions = {
  connectionString: string;
  channel: string;
  logger: Logger;
  /** Called with each notification's payload ('' when it has none), and with undefined after
   * each (re)connect: notifications sent while the connection was down are lost, so the owner
   * should look for work then. */
  onWake: (payload: string | undefined) => void;
  /** Wait before reconnecting, doubled on each failure up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
};

export type ChannelListener = {
  /** Closes the connection and stops reconnecting. */
  close(): Promise<void>;
};

/**
 * A dedicated PostgreSQL connection LISTENing on one channel, reconnecting with backoff when it
 * drops (LISTEN lives on the session, so a pooled connection would not do). It is only a
 * latency optimisation: the owner still polls, so a broken listener delays work, never loses it.
 */
export function listenToChannel(opts: ChannelListenerOptions): ChannelListener {
  const retryMs = opts.retryMs ?? 500;
  const maxRetryMs = opts.maxRetryMs ?? 30_000;
  let closed = false;
  let failures = 0;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    const delay = Math.min(maxRetryMs, retryMs * 2 ** Math.min(failures, 20));
    failures++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    retryTimer.unref();
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({
      // Connect and LISTEN within deadlines, and keepalive on the idle session, so a silent or dead
      // link ends in 'error' and a reconnect (docs/architecture.md "Deadlines").
      ...pgSessionDeadlines(),
      connectionString: opts.connectionString,
      application_name: 'payout-outbox-listener',
    });
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (client === next) client = undefined;
      if (closed) return;
      opts.logger.warn({ err, channel: opts.channel }, 'outbox listener connection lost; reconnecting');
      next.end().catch(() => undefined);
      scheduleReconnect();
    };
    next.on('error', drop);
    next.on('end', () => drop());
    next.on('notification', (msg) => {
      if (msg.channel === opts.channel) opts.onWake(msg.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(opts.channel)}`);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    failures = 0;
    opts.onWake(undefined);
  }

  void connect();

  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = undefined;
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}

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
