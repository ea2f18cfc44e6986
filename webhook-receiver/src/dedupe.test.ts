import { createMemoryDeduplicator } from './dedupe';

describe('createMemoryDeduplicator', () => {
  it('says first for a new id and duplicate for the same id again', async () => {
    const dedupe = createMemoryDeduplicator();
    expect(await dedupe.firstSeen('a')).toBe(true);
    expect(await dedupe.firstSeen('a')).toBe(false);
    expect(await dedupe.firstSeen('a')).toBe(false);
    expect(await dedupe.firstSeen('b')).toBe(true);
    expect(dedupe.size).toBe(2);
  });

  it('lets exactly one of concurrent calls with the same id win', async () => {
    const dedupe = createMemoryDeduplicator();
    const results = await Promise.all(Array.from({ length: 10 }, () => dedupe.firstSeen('same')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets an id on request (processing failed, let the retry through)', async () => {
    const dedupe = createMemoryDeduplicator();
    await dedupe.firstSeen('a');
    await dedupe.forget('a');
    expect(await dedupe.firstSeen('a')).toBe(true);
  });

  it('forgets ids after ttlMs', async () => {
    let now = 0;
    const dedupe = createMemoryDeduplicator({ ttlMs: 1000, now: () => now });
    await dedupe.firstSeen('a');
    now = 500;
    await dedupe.firstSeen('b');
    now = 999;
    expect(await dedupe.firstSeen('a')).toBe(false);
    now = 1000;
    expect(dedupe.size).toBe(1);
    expect(await dedupe.firstSeen('a')).toBe(true);
    expect(await dedupe.firstSeen('b')).toBe(false);
  });

  it('is bounded by maxEntries, dropping the oldest first', async () => {
    const dedupe = createMemoryDeduplicator({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(await dedupe.firstSeen(id)).toBe(true);
    expect(dedupe.size).toBe(3);
    expect(await dedupe.firstSeen('d')).toBe(false);
    expect(await dedupe.firstSeen('b')).toBe(false);
    expect(await dedupe.firstSeen('a')).toBe(true);
    for (let i = 0; i < 1000; i++) await dedupe.firstSeen(`id-${i}`);
    expect(dedupe.size).toBe(3);
  });

  it('refuses bad options and ids', async () => {
    expect(() => createMemoryDeduplicator({ ttlMs: 0 })).toThrow(TypeError);
    expect(() => createMemoryDeduplicator({ maxEntries: 0 })).toThrow(TypeError);
    expect(() => createMemoryDeduplicator({ maxEntries: 1.5 })).toThrow(TypeError);
    await expect(createMemoryDeduplicator().firstSeen('')).rejects.toThrow(TypeError);
  });
});
