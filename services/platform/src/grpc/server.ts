import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { ConnectRouter, Interceptor } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { Health } from '@qr-payout/proto/grpc/health/v1/health_pb';
import type { Logger } from '../logger';
import { createHealth, type HealthRegistry } from './health';
import {
  callLogInterceptor,
  errorMaskingInterceptor,
  type InFlight,
  inFlightInterceptor,
  requestContextInterceptor,
  serverTraceInterceptor,
} from './server-interceptors';

export type GrpcServerOptions = {
  /** Names the server in logs (e.g. 'decoder'). */
  serviceName: string;
  logger: Logger;
  register: (router: ConnectRouter) => void;
  /** Extra interceptors, run inside the platform ones. */
  interceptors?: Interceptor[];
  /** Largest accepted request message; connect's default otherwise. */
  readMaxBytes?: number;
};

export interface GrpcServer {
  readonly health: HealthRegistry;
  /** Starts accepting on `port` (0 picks a free one); resolves with the bound port. */
  listen(port: number, host?: string): Promise<number>;
  /** NOT_SERVING, stop accepting, wait up to graceMs for in-flight calls, then drop connections. */
  close(opts?: { graceMs?: number }): Promise<void>;
  /** Calls in flight now. */
  inFlight(): number;
}

/** A gRPC (HTTP/2 cleartext) server with grpc.health.v1.Health and the platform interceptors. */
export function createGrpcServer(opts: GrpcServerOptions): GrpcServer {
  const logger = opts.logger;
  const { registry: health, impl: healthImpl } = createHealth();
  const inFlight: InFlight = { count: 0, onIdle: new Set() };
  const servedServices = new Set<string>();

  const handler = connectNodeAdapter({
    grpc: true,
    grpcWeb: false,
    connect: false,
    ...(opts.readMaxBytes !== undefined ? { readMaxBytes: opts.readMaxBytes } : {}),
    // First is outermost: the span and request context wrap the log line and error masking.
    interceptors: [
      inFlightInterceptor(inFlight),
      serverTraceInterceptor(),
      requestContextInterceptor(),
      callLogInterceptor(logger),
      errorMaskingInterceptor(logger),
      ...(opts.interceptors ?? []),
    ],
    routes: (router) => {
      opts.register(router);
      router.service(Health, healthImpl);
      for (const handler of router.handlers) servedServices.add(handler.service.typeName);
    },
  });

  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  server.on('error', (err) => logger.error({ err }, 'grpc server error'));
  let closed: Promise<void> | undefined;

  return {
    health,
    inFlight: () => inFlight.count,
    listen(port, host = '0.0.0.0') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          // Every registered service starts SERVING unless the caller set it before listen.
          for (const name of ['', ...servedServices]) {
            if (health.getStatus(name) === undefined) health.setStatus(name, 'SERVING');
          }
          const bound = (server.address() as AddressInfo).port;
          logger.info({ port: bound, host }, 'grpc server listening');
          resolve(bound);
        });
      });
    },
    close({ graceMs = 10_000 } = {}) {
      closed ??= drainAndClose(graceMs);
      return closed;
    },
  };

  async function drainAndClose(graceMs: number): Promise<void> {
    health.setAll('NOT_SERVING');
    health.endWatches();
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // GOAWAY: clients open no new streams on existing connections; running streams finish.
    for (const session of sessions) if (!session.closed) session.close();
    const deadline = Date.now() + graceMs;
    const drained = await waitIdle(graceMs);
    if (!drained) {
      logger.warn({ in_flight: inFlight.count, grace_ms: graceMs }, 'grpc drain timed out');
    }
    // Handlers are done; let the last responses flush and sessions close on their own.
    const flushWait = new AbortController();
    await Promise.race([
      stopped,
      delay(Math.max(0, deadline - Date.now()), undefined, { signal: flushWait.signal }).catch(() => {}),
    ]);
    flushWait.abort();
    for (const session of sessions) session.destroy();
    await stopped;
    logger.info('grpc server closed');
  }

  function waitIdle(graceMs: number): Promise<boolean> {
    if (inFlight.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        inFlight.onIdle.delete(onIdle);
        resolve(idle);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(false), graceMs);
      inFlight.onIdle.add(onIdle);
    });
  }
}
