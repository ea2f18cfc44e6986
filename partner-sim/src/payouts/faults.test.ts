import { createFaults, DEFAULT_FAULT_TIMEOUT_MS } from './faults';

// A scripted random source: each call returns the next value.
function rolls(...values: number[]): () => number {
  return () => {
    const value = values.shift();
    if (value === undefined) throw new Error('no more rolls scripted');
    return value;
  };
}

describe('faults', () => {
  it('applies queued submit faults in order, once each, then none', () => {
    const faults = createFaults();
    faults.set({
      submit: [
        { kind: 'error_before_accept' },
        { kind: 'timeout_after_accept', ms: 40 },
        { kind: 'error_after_accept' },
      ],
    });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'error_before_accept' });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'timeout_after_accept', ms: 40 });
    expect(faults.view().submit).toEqual([{ kind: 'error_after_accept' }]);
    expect(faults.nextSubmitFault()).toEqual({ kind: 'error_after_accept' });
    expect(faults.nextSubmitFault()).toBeUndefined();
  });

  it('holds a timeout fault without ms for the plan timeout, else the default', () => {
    const faults = createFaults();
    faults.set({ submit: [{ kind: 'timeout_after_accept' }] });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'timeout_after_accept', ms: DEFAULT_FAULT_TIMEOUT_MS });
    faults.set({ submit: [{ kind: 'timeout_after_accept' }], timeout_ms: 75 });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'timeout_after_accept', ms: 75 });
  });

  it('rolls the rates once the queue is empty', () => {
    const faults = createFaults({ random: rolls(0.05, 0.2, 0.05, 0.7, 0.12, 0.5) });
    faults.set({ rates: { submit_5xx: 0.1, submit_timeout: 0.05 }, timeout_ms: 10 });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'error_before_accept' });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'error_after_accept' });
    expect(faults.nextSubmitFault()).toEqual({ kind: 'timeout_after_accept', ms: 10 });
    expect(faults.nextSubmitFault()).toBeUndefined();
  });

  it('drops queued callbacks first, then at the drop rate', () => {
    const faults = createFaults({ random: rolls(0.1, 0.3) });
    faults.set({ callback: [{ kind: 'drop' }], rates: { drop_callback: 0.2 } });
    expect(faults.nextCallbackFault()).toEqual({ kind: 'drop' });
    expect(faults.nextCallbackFault()).toEqual({ kind: 'drop' });
    expect(faults.nextCallbackFault()).toBeUndefined();
  });

  it('does not roll at all without rates, and clear forgets the plan', () => {
    const faults = createFaults({ random: rolls() });
    expect(faults.nextSubmitFault()).toBeUndefined();
    expect(faults.nextCallbackFault()).toBeUndefined();
    faults.set({ submit: [{ kind: 'error_before_accept' }], latency_ms: 30 });
    expect(faults.latencyMs()).toBe(30);
    faults.clear();
    expect(faults.latencyMs()).toBeUndefined();
    expect(faults.view()).toEqual({ submit: [], callback: [], rates: {} });
    expect(faults.nextSubmitFault()).toBeUndefined();
  });
});
