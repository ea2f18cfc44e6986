import { serveGrpc } from './serve';
import type { GrpcServer } from './server';

function recorder() {
  const calls: string[] = [];
  const server = {
    listen: async () => {
      calls.push('listen');
      return 50051;
    },
    close: async () => {
      calls.push('server.close');
    },
  } as unknown as GrpcServer;
  const deps = {
    migrate: async () => calls.push('migrate'),
    close: async () => {
      calls.push('deps.close');
    },
  };
  return { calls, server, deps };
}

describe('serveGrpc', () => {
  it('migrates, listens, starts workers; closes in reverse: drain, workers last-first, deps', async () => {
    const { calls, server, deps } = recorder();
    const worker = (name: string) => ({
      stop: async () => {
        calls.push(`${name}.stop`);
      },
    });
    const running = await serveGrpc({
      server,
      deps,
      config: { migrateOnStart: true, grpcPort: 0, host: '127.0.0.1', grpcDrainMs: 10 },
      startWorkers: () => {
        calls.push('workers');
        return [worker('relay'), worker('poller')];
      },
    });
    expect(running.url).toBe('http://127.0.0.1:50051');
    await Promise.all([running.stop(), running.stop()]);
    expect(calls).toEqual([
      'migrate',
      'listen',
      'workers',
      'server.close',
      'poller.stop',
      'relay.stop',
      'deps.close',
    ]);
  });

  it('closes the deps when listen fails, and runs every close step even when one fails', async () => {
    const { calls, server, deps } = recorder();
    server.listen = async () => {
      throw new Error('EADDRINUSE');
    };
    await expect(
      serveGrpc({ server, deps, config: { grpcPort: 1, host: '127.0.0.1', grpcDrainMs: 10 } }),
    ).rejects.toThrow('EADDRINUSE');
    expect(calls).toEqual(['deps.close']);

    const ok = recorder();
    const running = await serveGrpc({
      server: ok.server,
      deps: ok.deps,
      config: { grpcPort: 0, host: '127.0.0.1', grpcDrainMs: 10 },
      startWorkers: () => [
        {
          stop: async () => {
            throw new Error('relay stuck');
          },
        },
      ],
    });
    await expect(running.stop()).rejects.toThrow('relay stuck');
    expect(ok.calls).toEqual(['listen', 'server.close', 'deps.close']);
  });

  it('closes the listening server and the deps when the health port fails after listen', async () => {
    const { calls, server, deps } = recorder();
    server.listenHealth = async () => {
      calls.push('listenHealth');
      throw new Error('EADDRINUSE health');
    };
    await expect(
      serveGrpc({
        server,
        deps,
        config: { grpcPort: 0, grpcHealthPort: 1, host: '127.0.0.1', grpcDrainMs: 10 },
        startWorkers: () => {
          calls.push('workers');
          return [];
        },
      }),
    ).rejects.toThrow('EADDRINUSE health');
    expect(calls).toEqual(['listen', 'listenHealth', 'server.close', 'deps.close']);
  });
});
