import { groupOf, summarizeProfile } from './profile-summary';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

describe('groupOf', () => {
  it('names npm packages (scoped too), our packages, Node internals and V8', () => {
    expect(groupOf('file:///w/node_modules/ioredis/built/Redis.js', 'write')).toBe('ioredis');
    expect(groupOf('file:///w/node_modules/@grpc/grpc-js/build/src/call.js', 'f')).toBe('@grpc/grpc-js');
    expect(groupOf('file:///w/services/payout/src/pay.ts', 'pay')).toBe('ours: services/payout');
    expect(groupOf('file:///w/gateway/src/http/routes/pay.ts', 'route')).toBe('ours: gateway');
    expect(groupOf('node:internal/streams/writable', 'write')).toBe('node internals');
    expect(groupOf('', '(garbage collector)')).toBe('V8 garbage collector');
    expect(groupOf('', 'writev')).toBe('V8 / native (program)');
    expect(groupOf('file:///elsewhere/x.js', 'f')).toBe('other');
  });
});

describe('summarizeProfile', () => {
  it('leaves idle out, and charges a native or Node-internal frame to its first caller outside them', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 5, 6] },
        { id: 2, callFrame: frame('send', 'file:///w/node_modules/ioredis/built/Redis.js'), children: [3] },
        { id: 3, callFrame: frame('write', 'node:net'), children: [4] },
        { id: 4, callFrame: frame('writev', '') },
        { id: 5, callFrame: frame('(idle)', '') },
        { id: 6, callFrame: frame('(program)', '') },
      ],
      samples: [4, 3, 2, 5, 6],
      timeDeltas: [1000, 1000, 2000, 50_000, 2000],
    };
    const summary = summarizeProfile(profile);
    expect(summary.busyMs).toBe(6);
    expect(summary.groups).toEqual([
      { name: 'ioredis', ms: 4, share: 4 / 6 },
      { name: 'V8 / native (program)', ms: 2, share: 2 / 6 },
    ]);
    expect(summary.functions.map((f) => f.name)).toContain('writev  [ioredis]');
    expect(summary.functions.some((f) => f.name.startsWith('(idle)'))).toBe(false);
  });

  it('counts only the last seconds of the profile when asked', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3] },
        { id: 2, callFrame: frame('start', 'file:///w/services/payout/src/start.ts') },
        { id: 3, callFrame: frame('poll', 'file:///w/services/payout/src/polling/worker.ts') },
      ],
      samples: [2, 2, 3, 3],
      // 3 s of start, then two 1 s samples of the poll.
      timeDeltas: [1_500_000, 1_500_000, 1_000_000, 1_000_000],
    };
    const summary = summarizeProfile(profile, 2);
    expect(summary.busyMs).toBe(2000);
    expect(summary.functions.map((f) => f.name)).toEqual(['poll worker.ts:1 [ours: services/payout]']);
  });
});
