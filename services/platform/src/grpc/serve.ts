import { dialUrl } from '../net/dial-url';
import type { GrpcServer } from './server';

/** A background loop started once the service listens (outbox relay, polling worker, ...). */
export type ServiceWorker = { stop(): Promise<void> };

type ServeGrpcOptions = {
  server: GrpcServer;
  /** What the service owns besides the server: migrations (when it has a schema) and close. */
  deps: { migrate?(): Promise<unknown>; close(): Promise<void> };
  /**
   * The service's config (grpcServiceSettings, and MIGRATE_ON_START when it has a schema):
   * grpcDrainMs is how long stop() lets in-flight calls finish.
   */
  config: {
    grpcPort: number;
    host: string;
    grpcDrainMs: number;
    /** The cleartext health-only port (GrpcServer.listenHealth); unset: none. */
    grpcHealthPort?: number | undefined;
    migrateOnStart?: boolean;
  };
  /** Started after migrations and listen; stopped after the drain, last started first. */
  startWorkers?: () => ServiceWorker[];
};

export type RunningGrpcService = {
  /** Where a client on this host dials the service, e.g. http://127.0.0.1:50051 (the bound port). */
  readonly url: string;
  /** NOT_SERVING, drain in-flight calls, stop the workers, then close the deps. Idempotent. */
  stop(): Promise<void>;
};

/**
 * The start sequence every gRPC service shares: migrate (when asked), listen, start workers; and
 * the matching close. A failed start closes what was opened (the listening server when the health
 * port then fails, and the deps), so a caller never leaks a pool or a port.
 */
export async function serveGrpc(opts: ServeGrpcOptions): Promise<RunningGrpcService> {
  let grpcPort: number | undefined;
  try {
    if (opts.config.migrateOnStart && opts.deps.migrate) await opts.deps.migrate();
    grpcPort = await opts.server.listen(opts.config.grpcPort, opts.config.host);
    if (opts.config.grpcHealthPort !== undefined) {
      await opts.server.listenHealth(opts.config.grpcHealthPort, opts.config.host);
    }
  } catch (err) {
    // Best effort: the start's own failure is the one the caller must see.
    if (grpcPort !== undefined) await opts.server.close({ graceMs: 0 }).catch(() => undefined);
    await opts.deps.close();
    throw err;
  }
  const workers = opts.startWorkers?.() ?? [];
  let closing: Promise<void> | undefined;
  return {
    url: dialUrl(opts.config.host, grpcPort),
    stop() {
      closing ??= (async () => {
        // Every step runs even when one fails; the first failure is rethrown at the end.
        const failures: unknown[] = [];
        const step = (run: () => Promise<unknown>) => run().catch((err: unknown) => failures.push(err));
        await step(() => opts.server.close({ graceMs: opts.config.grpcDrainMs }));
        // Workers may still write (a relay publishes what the drain settled): stop them after it.
        for (const worker of [...workers].reverse()) await step(() => worker.stop());
        await step(() => opts.deps.close());
        if (failures.length > 0) throw failures[0];
      })();
      return closing;
    },
  };
}
