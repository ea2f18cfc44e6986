import type { Logger } from '../logger';
import { type BusMessage, batchHandlerOf, type EventBus, type Subscription } from './bus';
import { inConsumerSpans, startPublishSpans } from './trace';

type MemoryBusOptions = {
  logger?: Logger;
  /** Wait before delivering again a message whose handler threw. */
  redeliveryDelayMs?: number;
};

type Member = { handleBatch: (messages: BusMessage[]) => Promise<void>; maxBatchSize: number };
type Group = { id: string; offset: number; members: Member[]; turn: number; pumping?: Promise<void> };
type Topic = { log: BusMessage[]; groups: Map<string, Group> };

export type MemoryBus = EventBus & {
  /** Resolves when every subscribed group has handled every message published so far. */
  idle(): Promise<void>;
};

/**
 * The EventBus in process (the sandbox): per topic an append-only log; each consumer group reads
 * it in order, at least once (a throwing handler gets the message again), one message at a time.
 */
export function createMemoryBus(opts: MemoryBusOptions = {}): MemoryBus {
  const topics = new Map<string, Topic>();
  const redeliveryDelayMs = opts.redeliveryDelayMs ?? 200;
  let closed = false;

  function topicOf(name: string): Topic {
    let topic = topics.get(name);
    if (!topic) {
      topic = { log: [], groups: new Map() };
      topics.set(name, topic);
    }
    return topic;
  }

  function pump(name: string, topic: Topic, group: Group): void {
    if (group.pumping) return;
    group.pumping = (async () => {
      // Deliver on a later tick: publish never runs handlers inside the publisher's call.
      await new Promise((resolve) => setImmediate(resolve));
      while (!closed && group.offset < topic.log.length && group.members.length > 0) {
        const member = group.members[group.turn++ % group.members.length]!;
        const batch = topic.log.slice(group.offset, group.offset + member.maxBatchSize);
        try {
          await inConsumerSpans(name, group.id, batch, 'memory', member.handleBatch);
          group.offset += batch.length;
        } catch (err) {
          opts.logger?.error(
            { err, topic: name, group: group.id, offset: group.offset },
            'event handler failed',
          );
          await new Promise((resolve) => setTimeout(resolve, redeliveryDelayMs));
        }
      }
    })().finally(() => {
      group.pumping = undefined;
      if (!closed && group.offset < topic.log.length && group.members.length > 0) pump(name, topic, group);
    });
  }

  return {
    async publish(name, messages) {
      if (closed) throw new Error('event bus is closed');
      const spans = startPublishSpans(name, messages, 'memory');
      const topic = topicOf(name);
      messages.forEach((message, i) => {
        topic.log.push({ key: message.key, value: message.value, headers: spans.headers[i]! });
      });
      spans.end();
      for (const group of topic.groups.values()) pump(name, topic, group);
    },

    async subscribe(opts): Promise<Subscription> {
      const { topic: name, groupId, fromBeginning = true } = opts;
      const topic = topicOf(name);
      let group = topic.groups.get(groupId);
      if (!group) {
        group = { id: groupId, offset: fromBeginning ? 0 : topic.log.length, members: [], turn: 0 };
        topic.groups.set(groupId, group);
      }
      const member: Member = batchHandlerOf(opts);
      group.members.push(member);
      pump(name, topic, group);
      const joined = group;
      return {
        async stop() {
          joined.members = joined.members.filter((m) => m !== member);
          await joined.pumping;
        },
      };
    },

    async idle() {
      for (;;) {
        const busy = [...topics.values()].flatMap((topic) =>
          [...topic.groups.values()].filter(
            (group) => group.pumping || (group.members.length > 0 && group.offset < topic.log.length),
          ),
        );
        if (busy.length === 0) return;
        await Promise.all(busy.map((group) => group.pumping));
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    async close() {
      closed = true;
      const running = [...topics.values()].flatMap((topic) =>
        [...topic.groups.values()].map((g) => g.pumping),
      );
      await Promise.all(running);
    },
  };
}
