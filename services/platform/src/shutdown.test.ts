import { silentLogger } from './logger';
import { onShutdown, runWorkerLoop } from './shutdown';

const logger = silentLogger();

describe('onShutdown', () => {
  it('runs the steps in order, each after the previous one finished, then exits 0', async () => {
    const order: string[] = [];
    const exit = jest.fn();
    const trigger = onShutdown({
      logger,
      graceMs: 1_000,
      signals: [],
      exit,
      steps: [
        { name: 'readiness', run: () => order.push('readiness') },
        {
          name: 'grpc',
          run: async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            order.push('grpc');
          },
        },
        { name: 'pools', run: async () => order.push('pools') },
        { name: 'telemetry', run: () => order.push('telemetry') },
      ],
    });
    const result = await trigger();
    expect(order).toEqual(['readiness', 'grpc', 'pools', 'telemetry']);
    expect(result).toEqual({ code: 0, failed: [], timedOut: false });
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('keeps going after a failed step and exits 1', async () => {
    const order: string[] = [];
    const exit = jest.fn();
    const trigger = onShutdown({
      logger,
      graceMs: 1_000,
      signals: [],
      exit,
      steps: [
        { name: 'consumers', run: () => Promise.reject(new Error('broker gone')) },
        { name: 'pools', run: () => order.push('pools') },
      ],
    });
    const result = await trigger();
    expect(order).toEqual(['pools']);
    expect(result).toEqual({ code: 1, failed: ['consumers'], timedOut: false });
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('stops at the deadline shared by all steps', async () => {
    const order: string[] = [];
    const exit = jest.fn();
    const started = Date.now();
    const trigger = onShutdown({
      logger,
      graceMs: 100,
      signals: [],
      exit,
      steps: [
        {
          name: 'first',
          run: () => new Promise((resolve) => setTimeout(resolve, 60)).then(() => order.push('first')),
        },
        { name: 'hangs', run: () => new Promise(() => {}) },
        { name: 'never', run: () => order.push('never') },
      ],
    });
    const result = await trigger();
    const took = Date.now() - started;
    expect(order).toEqual(['first']);
    expect(result).toEqual({ code: 1, failed: ['hangs'], timedOut: true });
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(1_000);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('runs once however often it is triggered', async () => {
    const run = jest.fn();
    const exit = jest.fn();
    const trigger = onShutdown({ logger, graceMs: 100, signals: [], exit, steps: [{ name: 'only', run }] });
    await Promise.all([trigger(), trigger()]);
    expect(run).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('shuts down on the first signal and exits at once on the second', async () => {
    const exit = jest.fn();
    let release: () => void = () => {};
    let nowMs = 0;
    const trigger = onShutdown({
      logger,
      graceMs: 5_000,
      signals: ['SIGUSR2', 'SIGHUP'],
      exit,
      now: () => nowMs,
      steps: [{ name: 'slow', run: () => new Promise<void>((resolve) => (release = resolve)) }],
    });
    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(exit).not.toHaveBeenCalled();
    // One Ctrl-C under npm arrives twice (terminal and npm): the same signal at once is not a second.
    nowMs = 50;
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exit).not.toHaveBeenCalled();
    nowMs = 5_000;
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exit).toHaveBeenCalledWith(1);
    release();
    await trigger();
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });

  it('takes another signal at once as the second', async () => {
    const exit = jest.fn();
    let release: () => void = () => {};
    const trigger = onShutdown({
      logger,
      graceMs: 5_000,
      signals: ['SIGUSR2', 'SIGHUP'],
      exit,
      now: () => 0,
      steps: [{ name: 'slow', run: () => new Promise<void>((resolve) => (release = resolve)) }],
    });
    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((resolve) => setImmediate(resolve));
    process.emit('SIGHUP', 'SIGHUP');
    expect(exit).toHaveBeenCalledWith(1);
    release();
    await trigger();
  });
});

describe('runWorkerLoop', () => {
  it('goes again at once while a round says so, sleeps otherwise, and passes errors on', async () => {
    const rounds: string[] = [];
    const errors: unknown[] = [];
    let n = 0;
    const loop = runWorkerLoop({
      round: async () => {
        n += 1;
        rounds.push(`round ${n}`);
        if (n === 3) throw new Error('boom');
        return n < 3;
      },
      intervalMs: 60_000,
      onError: (err) => errors.push(err),
    });
    // Rounds 1 and 2 ask for more; round 3 throws, then the loop sleeps the (long) interval.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rounds).toEqual(['round 1', 'round 2', 'round 3']);
    expect(errors).toEqual([new Error('boom')]);
    // stop() cuts the sleep short and is idempotent.
    const started = Date.now();
    await Promise.all([loop.stop(), loop.stop()]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(rounds).toHaveLength(3);
  });

  it('stop waits for the round in flight', async () => {
    let finished = false;
    const loop = runWorkerLoop({
      round: async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        finished = true;
        return false;
      },
      intervalMs: 60_000,
      onError: () => undefined,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await loop.stop();
    expect(finished).toBe(true);
  });
});
