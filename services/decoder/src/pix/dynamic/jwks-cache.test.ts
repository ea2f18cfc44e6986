import type { JsonWebKey } from 'node:crypto';
import { createJwksCache, REFRESH_INTERVAL_MS } from './jwks-cache';

const URL_A = 'https://psp.example/jwks';

function harness(initial: JsonWebKey[]) {
  let clock = 1_000_000;
  let published = initial;
  const loads: string[] = [];
  let failNext = false;
  const cache = createJwksCache({
    ttlMs: 60_000,
    now: () => clock,
    load: async (url) => {
      loads.push(url);
      if (failNext) {
        failNext = false;
        throw new Error('down');
      }
      return published;
    },
  });
  return {
    cache,
    loads,
    advance: (ms: number) => {
      clock += ms;
    },
    publish: (keys: JsonWebKey[]) => {
      published = keys;
    },
    failOnce: () => {
      failNext = true;
    },
  };
}

describe('createJwksCache', () => {
  it('serves a JWKS from cache until its TTL passes', async () => {
    const h = harness([{ kid: 'k1' }]);
    expect(await h.cache.keysFor(URL_A, 'k1', 0)).toEqual([{ kid: 'k1' }]);
    h.advance(59_000);
    await h.cache.keysFor(URL_A, 'k1', 0);
    expect(h.loads).toHaveLength(1);
    h.advance(1_000);
    await h.cache.keysFor(URL_A, 'k1', 0);
    expect(h.loads).toHaveLength(2);
  });

  it('fetches again for an unknown kid (rotation), at most once per refresh interval', async () => {
    const h = harness([{ kid: 'k1' }]);
    await h.cache.keysFor(URL_A, 'k1', 0);
    h.publish([{ kid: 'k1' }, { kid: 'k2' }]);
    expect(await h.cache.keysFor(URL_A, 'k2', 0)).toEqual([]);
    expect(h.loads).toHaveLength(1);
    h.advance(REFRESH_INTERVAL_MS);
    expect(await h.cache.keysFor(URL_A, 'k2', 0)).toEqual([{ kid: 'k2' }]);
    expect(await h.cache.keysFor(URL_A, 'k3', 0)).toEqual([]);
    expect(h.loads).toHaveLength(2);
  });

  it('shares one fetch between concurrent misses and does not cache failures', async () => {
    const h = harness([{ kid: 'k1' }]);
    h.failOnce();
    await expect(h.cache.keysFor(URL_A, 'k1', 0)).rejects.toThrow('down');
    const both = await Promise.all([h.cache.keysFor(URL_A, 'k1', 0), h.cache.keysFor(URL_A, undefined, 0)]);
    expect(both).toEqual([[{ kid: 'k1' }], [{ kid: 'k1' }]]);
    expect(h.loads).toHaveLength(2);
  });
});
