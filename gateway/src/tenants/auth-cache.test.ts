import { createBoundedTtlCache } from './auth-cache';

describe('createBoundedTtlCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000;
  });

  it('returns a value until its ttl passes', () => {
    const cache = createBoundedTtlCache<string>({ maxEntries: 10, now: clock });
    cache.set('a', 'A', 100);
    expect(cache.get('a')).toEqual({ value: 'A' });
    now += 99;
    expect(cache.get('a')).toEqual({ value: 'A' });
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('caches null as a real value (a negative result)', () => {
    const cache = createBoundedTtlCache<null>({ maxEntries: 10, now: clock });
    cache.set('k', null, 50);
    expect(cache.get('k')).toEqual({ value: null });
  });

  it('never holds more than maxEntries, dropping the oldest first', () => {
    const cache = createBoundedTtlCache<number>({ maxEntries: 3, now: clock });
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i, 60_000);
    expect(cache.size).toBe(3);
    expect(cache.get('k996')).toBeUndefined();
    expect(cache.get('k997')).toEqual({ value: 997 });
    expect(cache.get('k999')).toEqual({ value: 999 });
  });

  it('deleteWhere drops only matching entries', () => {
    const cache = createBoundedTtlCache<{ tenant: string }>({ maxEntries: 10, now: clock });
    cache.set('1', { tenant: 'a' }, 1000);
    cache.set('2', { tenant: 'b' }, 1000);
    cache.deleteWhere((v) => v.tenant === 'a');
    expect(cache.get('1')).toBeUndefined();
    expect(cache.get('2')).toEqual({ value: { tenant: 'b' } });
  });

  it('ignores a zero ttl', () => {
    const cache = createBoundedTtlCache<number>({ maxEntries: 10, now: clock });
    cache.set('a', 1, 0);
    expect(cache.get('a')).toBeUndefined();
  });
});
