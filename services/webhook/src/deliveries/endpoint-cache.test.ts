import { createTenantEndpointCache } from './endpoint-cache';
import type { TenantEndpoint } from './store';

const endpoint = (id: string): TenantEndpoint => ({
  endpointId: id,
  url: `https://example.com/${id}`,
  retryStrategy: 'standard',
  eventTypes: ['*'],
});

function fixture(ttlMs: number) {
  let clock = 0;
  const stored = new Map<string, TenantEndpoint[]>([
    ['ten_a', [endpoint('whe_1')]],
    ['ten_b', []],
  ]);
  const loads: string[][] = [];
  const cache = createTenantEndpointCache({
    ttlMs,
    now: () => clock,
    load: async (ids) => {
      loads.push(ids);
      return new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!] as const] : [])));
    },
  });
  return { cache, loads, stored, advance: (ms: number) => (clock += ms) };
}

describe('createTenantEndpointCache', () => {
  it('reads each tenant once per TTL, unknown tenants included, in one load for the stale ones', async () => {
    const { cache, loads, advance } = fixture(1_000);
    const first = await cache.get(['ten_a', 'ten_b', 'ten_unknown', 'ten_a']);
    expect([...first.keys()].sort()).toEqual(['ten_a', 'ten_b']);
    expect(first.get('ten_a')).toEqual([endpoint('whe_1')]);
    advance(999);
    await cache.get(['ten_a', 'ten_b', 'ten_unknown']);
    expect(loads).toEqual([['ten_a', 'ten_b', 'ten_unknown']]);
    advance(1);
    await cache.get(['ten_b']);
    expect(loads).toEqual([['ten_a', 'ten_b', 'ten_unknown'], ['ten_b']]);
  });

  it('sees a new endpoint within the TTL, and at once after invalidate()', async () => {
    const { cache, stored, advance } = fixture(1_000);
    await cache.get(['ten_b']);
    stored.set('ten_b', [endpoint('whe_2')]);
    cache.invalidate('ten_b');
    expect((await cache.get(['ten_b'])).get('ten_b')).toEqual([endpoint('whe_2')]);
    stored.set('ten_b', [endpoint('whe_2'), endpoint('whe_3')]);
    advance(1_000);
    expect((await cache.get(['ten_b'])).get('ten_b')).toHaveLength(2);
  });

  it('with a TTL of 0 reads on every call', async () => {
    const { cache, loads } = fixture(0);
    await cache.get(['ten_a']);
    await cache.get(['ten_a']);
    expect(loads).toHaveLength(2);
  });
});
