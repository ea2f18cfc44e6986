import { randomBytes } from 'node:crypto';
import { createRedis, type Redis } from '../src';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:56379';

describe('createRedis (real Redis)', () => {
  const prefix = `platform-test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = createRedis(REDIS_URL, { name: 'platform-test', keyPrefix: prefix });
  });

  afterAll(async () => {
    const plain = createRedis(REDIS_URL, { name: 'platform-test-cleanup' });
    const keys = await plain.keys(`${prefix}*`);
    if (keys.length > 0) await plain.del(...keys);
    await plain.quit();
    await redis.quit();
  });

  it('connects with its name and stores under its key prefix', async () => {
    await redis.set('greeting', 'hola', 'PX', 10_000);
    expect(await redis.get('greeting')).toBe('hola');
    const plain = createRedis(REDIS_URL, { name: 'platform-test-plain' });
    expect(await plain.get(`${prefix}greeting`)).toBe('hola');
    expect(await plain.client('GETNAME')).toBe('platform-test-plain');
    await plain.quit();
  });

  it('reports an unreachable server as failed commands, not as a process error', async () => {
    const down = createRedis('redis://127.0.0.1:1', { name: 'down', maxRetriesPerRequest: 0 });
    await expect(down.get('x')).rejects.toThrow();
    down.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
