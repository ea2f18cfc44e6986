import type { BusMessage } from './bus';
import { createMemoryBus } from './memory';

const message = (key: string, text: string, headers: Record<string, string> = {}): BusMessage => ({
  key,
  value: new TextEncoder().encode(text),
  headers,
});
const text = (m: BusMessage) => new TextDecoder().decode(m.value);

describe('createMemoryBus', () => {
  it('delivers every message, in order, with key, value and headers, to each group', async () => {
    const bus = createMemoryBus();
    const a: BusMessage[] = [];
    const b: BusMessage[] = [];
    await bus.publish('txn', [message('k1', 'one', { 'content-type': 'application/x-protobuf' })]);
    await bus.subscribe({ topic: 'txn', groupId: 'a', handle: async (m) => void a.push(m) });
    await bus.subscribe({ topic: 'txn', groupId: 'b', handle: async (m) => void b.push(m) });
    await bus.publish('txn', [message('k2', 'two'), message('k1', 'three')]);
    await bus.idle();
    expect(a.map(text)).toEqual(['one', 'two', 'three']);
    expect(b.map(text)).toEqual(['one', 'two', 'three']);
    expect(a.map((m) => m.key)).toEqual(['k1', 'k2', 'k1']);
    expect(a[0]!.headers['content-type']).toBe('application/x-protobuf');
    await bus.close();
  });

  it('shares a group between its subscribers: each message is handled once', async () => {
    const bus = createMemoryBus();
    const seen: string[] = [];
    await bus.subscribe({ topic: 't', groupId: 'g', handle: async (m) => void seen.push(`1:${text(m)}`) });
    await bus.subscribe({ topic: 't', groupId: 'g', handle: async (m) => void seen.push(`2:${text(m)}`) });
    await bus.publish('t', [message('a', 'x'), message('b', 'y'), message('c', 'z')]);
    await bus.idle();
    expect(seen.map((s) => s.slice(2))).toEqual(['x', 'y', 'z']);
    await bus.close();
  });

  it('delivers again a message whose handler threw (at least once)', async () => {
    const bus = createMemoryBus({ redeliveryDelayMs: 5 });
    let attempts = 0;
    const handled: string[] = [];
    await bus.subscribe({
      topic: 't',
      groupId: 'g',
      handle: async (m) => {
        attempts++;
        if (attempts === 1) throw new Error('transient');
        handled.push(text(m));
      },
    });
    await bus.publish('t', [message('a', 'x'), message('b', 'y')]);
    await bus.idle();
    expect(attempts).toBe(3);
    expect(handled).toEqual(['x', 'y']);
    await bus.close();
  });

  it('starts a new group at the end when fromBeginning is false, and stops on stop()', async () => {
    const bus = createMemoryBus();
    const seen: string[] = [];
    await bus.publish('t', [message('a', 'old')]);
    const sub = await bus.subscribe({
      topic: 't',
      groupId: 'late',
      fromBeginning: false,
      handle: async (m) => void seen.push(text(m)),
    });
    await bus.publish('t', [message('a', 'new')]);
    await bus.idle();
    await sub.stop();
    await bus.publish('t', [message('a', 'after-stop')]);
    await bus.idle();
    expect(seen).toEqual(['new']);
    await bus.close();
  });

  it('does not run handlers inside publish', async () => {
    const bus = createMemoryBus();
    const seen: string[] = [];
    await bus.subscribe({ topic: 't', groupId: 'g', handle: async (m) => void seen.push(text(m)) });
    await bus.publish('t', [message('a', 'x')]);
    expect(seen).toEqual([]);
    await bus.idle();
    expect(seen).toEqual(['x']);
    await bus.close();
  });
});
