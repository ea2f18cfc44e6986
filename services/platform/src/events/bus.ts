import type { Context } from '@opentelemetry/api';

/** A message on the bus: the key orders it within its partition; the value is a protobuf payload. */
export type BusMessage = {
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
  /**
   * Set on a received message: the context of its `process` span, for work that outlives the
   * handler and continues the message's trace (docs/architecture.md "Traces"). Not sent.
   */
  traceContext?: Context;
};

export type SubscribeOptions = {
  topic: string;
  groupId: string;
} & (
  | {
      /** Resolve to acknowledge; throw to have the message delivered again. */
      handle: (message: BusMessage) => Promise<void>;
      handleBatch?: never;
    }
  | {
      /**
       * Several messages of one partition, in order, at most `maxBatchSize`: resolve to acknowledge
       * them all at once (one offset commit); throw to have them all delivered again.
       */
      handleBatch: (messages: BusMessage[]) => Promise<void>;
      handle?: never;
      maxBatchSize?: number;
    }
) & {
    /** A new group starts at the earliest message (default) or only sees new ones. */
    fromBeginning?: boolean;
    /**
     * Kafka: how long the broker waits for a silent member (a killed process) before handing its
     * partitions to the others (kafkajs default 30 s; the broker's minimum is 6 s).
     */
    sessionTimeoutMs?: number;
  };

/** A subscription's handler as one batch handler (a per-message handler takes batches of one). */
export function batchHandlerOf(opts: SubscribeOptions): {
  handleBatch: (messages: BusMessage[]) => Promise<void>;
  maxBatchSize: number;
} {
  if (opts.handleBatch) return { handleBatch: opts.handleBatch, maxBatchSize: opts.maxBatchSize ?? 500 };
  const handle = opts.handle;
  return {
    maxBatchSize: 1,
    async handleBatch(messages) {
      for (const message of messages) await handle(message);
    },
  };
}

export interface Subscription {
  /** Stops consuming; resolves once the message being handled (if any) is done. */
  stop(): Promise<void>;
}

/** Options of one publish. */
export type PublishOptions = {
  /**
   * The longest the caller waits for the acknowledgement: past it the publish rejects (and the
   * Kafka bus never sends on that producer again, docs/architecture.md "The outbox and Kafka").
   */
  timeoutMs?: number;
};

export interface EventBus {
  /** Resolves once every message is acknowledged by the bus; rejects past `timeoutMs`. */
  publish(topic: string, messages: BusMessage[], opts?: PublishOptions): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /** Stops every subscription and the producer. */
  close(): Promise<void>;
}
