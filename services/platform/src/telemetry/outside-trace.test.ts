import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, type ContextManager, context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { runOutsideTrace } from './outside-trace';

// The SDK's context manager in a few lines (the real one comes with the SDK, started by preload).
function alsContextManager(): ContextManager {
  const storage = new AsyncLocalStorage<Context>();
  const manager: ContextManager = {
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.call(thisArg, ...args)),
    bind: (_ctx, target) => target,
    enable: () => manager,
    disable: () => manager,
  };
  return manager;
}

describe('runOutsideTrace', () => {
  beforeAll(() => {
    context.setGlobalContextManager(alsContextManager());
  });
  afterAll(() => {
    context.disable();
  });

  it('runs without the caller’s span and returns what the function returns, then restores it', () => {
    const parent = trace.wrapSpanContext({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 0,
    });
    context.with(trace.setSpan(context.active(), parent), () => {
      expect(trace.getSpan(context.active())).toBe(parent);
      const result = runOutsideTrace(() => {
        expect(trace.getSpan(context.active())).toBeUndefined();
        return 42;
      });
      expect(result).toBe(42);
      expect(trace.getSpan(context.active())).toBe(parent);
    });
  });
});
