// Consuming from Kafka: kafkajs' batches handed to a subscription's handler in its consumer spans,
// offsets committed only after the handler succeeded (at-least-once).
import type { Consumer, EachBatchPayload, IHeaders } from 'kafkajs';
import type { Logger } from '../logger';
import type { BusMessage } from './bus';
import { inConsumerSpans } from './trace';

function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key] = first.toString();
  }
  return out;
}

export /**
 * kafkajs' eachBatch for one subscription: the fetched batch in slices of `maxBatchSize`, each
 * handled in its consumer spans, then its offset committed (at-least-once: never before the
 * handler succeeded).
 */
function committingBatchHandler(sub: {
  consumer: Consumer;
  groupId: string;
  handleBatch: (messages: BusMessage[]) => Promise<void>;
  maxBatchSize: number;
  logger: Logger;
}): (payload: EachBatchPayload) => Promise<void> {
  const { consumer, groupId, handleBatch, maxBatchSize, logger } = sub;
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
    const { topic: from, partition } = batch;
    for (let start = 0; start < batch.messages.length; start += maxBatchSize) {
      if (!isRunning() || isStale()) return;
      const slice = batch.messages.slice(start, start + maxBatchSize);
      const received: BusMessage[] = slice.map((message) => ({
        key: message.key?.toString() ?? '',
        value: message.value ? new Uint8Array(message.value) : new Uint8Array(),
        headers: headersToRecord(message.headers),
      }));
      const last = slice[slice.length - 1]!.offset;
      try {
        await inConsumerSpans(from, groupId, received, 'kafka', handleBatch);
      } catch (err) {
        // Not committed: kafkajs retries, then restarts the consumer at the same offset.
        logger.error(
          {
            err,
            topic: from,
            partition,
            offset: slice[0]!.offset,
            count: slice.length,
            group: groupId,
          },
          'event handler failed',
        );
        throw err;
      }
      // At-least-once: the offset moves only after the handler succeeded.
      resolveOffset(last);
      await consumer.commitOffsets([{ topic: from, partition, offset: (BigInt(last) + 1n).toString() }]);
      // Which offsets a group handled and committed, by event id (LOG_LEVEL=debug): what an
      // operator greps when an event is missing downstream (docs/runbooks.md "Webhook consumer lag").
      logger.debug(
        {
          topic: from,
          partition,
          group: groupId,
          first: slice[0]!.offset,
          last,
          event_ids: received.map((m) => m.headers['event-id'] ?? ''),
        },
        'event batch handled and committed',
      );
      await heartbeat();
    }
  };
}
