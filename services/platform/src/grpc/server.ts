import { type DescService, fromBinary, type Message, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, type ServiceImpl } from '@connectrpc/connect';
import * as grpc from '@grpc/grpc-js';
import { Health } from '@qr-payout/proto/grpc/health/v1/health_pb';
import type { Logger } from '../logger';
import { durationHistogram } from '../metrics/instruments';
import { createHealth, type HealthRegistry, LIVENESS_HEALTH_SERVICE } from './health';
import {
  type GrpcServerInterceptor,
  type InFlight,
  type ServerStreamImplementation,
  serverRoute,
  serverStreamHandler,
  type UnaryImplementation,
  unaryHandler,
} from './server-interceptors';
import { type GrpcTls, serverCredentials } from './tls';

/**
 * What `register` receives: connect's `router.service(Desc, impl)`, so service code written
 * against connect's ConnectRouter and ServiceImpl registers unchanged.
 */
export interface GrpcRouter {
  /** Serves `implementation`; methods it leaves out answer UNIMPLEMENTED. */
  service<T extends DescService>(service: T, implementation: Partial<ServiceImpl<T>>): this;
}

type GrpcServerOptions = {
  /** Names the server in logs (e.g. 'decoder'). */
  serviceName: string;
  logger: Logger;
  register(router: GrpcRouter): void;
  /** Wrap every unary implementation, inside the platform's span, context, log and masking. */
  interceptors?: GrpcServerInterceptor[];
  /** Largest accepted request message; gRPC's 4 MiB otherwise. */
  readMaxBytes?: number;
  /**
   * After about this long (grpc-js adds ±10% jitter) a connection gets a GOAWAY, so its client
   * reconnects and re-resolves the service's name, and a replica added since gets its share
   * (docs/architecture.md "Internal load balancing"). Unset or 0: connections live on.
   */
  maxConnectionAgeMs?: number;
  /** How long calls still running on a connection past its age may finish; unset: no limit. */
  maxConnectionAgeGraceMs?: number;
  /**
   * mTLS (grpcTlsSetting): the server presents this certificate and refuses a caller without a
   * client certificate from the CA. Unset: cleartext.
   */
  tls?: GrpcTls;
};

export interface GrpcServer {
  readonly health: HealthRegistry;
  /** Starts accepting on `port` (0 picks a free one); resolves with the bound port. */
  listen(port: number, host?: string): Promise<number>;
  /**
   * Serves grpc.health.v1.Health alone, in cleartext, on another port (0 picks a free one), for
   * probes that cannot present a client certificate: the kubelet's (docs/operators.md "Mutual
   * TLS between services"). Resolves with the bound port.
   */
  listenHealth(port: number, host?: string): Promise<number>;
  /** NOT_SERVING, stop accepting, wait up to graceMs for in-flight calls, then drop connections. */
  close(opts?: { graceMs?: number }): Promise<void>;
  /** Calls of the served services in flight now (grpc.health.v1 calls are not counted). */
  inFlight(): number;
  /** grpc.health.v1 calls open now: mostly the round-robin clients' Watch streams. */
  healthCallsInFlight(): number;
}

const METER = '@qr-payout/platform/grpc';

/** A gRPC (HTTP/2 cleartext) server on @grpc/grpc-js with grpc.health.v1.Health. */
export function createGrpcServer(opts: GrpcServerOptions): GrpcServer {
  const logger = opts.logger;
  // channelz stays on (the default): grpc-js tracks the sessions forceShutdown() destroys only
  // when it is enabled (1.14), and close() relies on that after the grace.
  const server = new grpc.Server(serverOptions(opts));
  // Health alone, in cleartext, when listenHealth is called.
  const healthServer = new grpc.Server(serverOptions(opts));
  const { registry: health, impl: healthImpl } = createHealth();
  const inFlight: InFlight = { count: 0, onIdle: new Set() };
  // grpc.health.v1 calls are not work: every round-robin client holds a Watch open on each
  // connection (health-checked-round-robin.ts), which close() ends itself. inFlight() and the
  // drain count the served services' calls only.
  const healthCalls: InFlight = { count: 0, onIdle: new Set() };
  const servedServices = new Set<string>();
  const interceptors = opts.interceptors ?? [];
  // docs/runbooks.md "gRPC errors": rate, errors and latency per RPC.
  const durations = durationHistogram(
    METER,
    'rpc_server_call_duration_seconds',
    'Duration of the gRPC calls this server answered, by service, method and status code',
  );

  /** Registers every method of `service` on `target`. */
  const register = (target: grpc.Server, service: DescService, implementation: object) => {
    const methods = implementation as Record<string, unknown>;
    for (const method of service.methods) {
      const counted = service.typeName === Health.typeName ? healthCalls : inFlight;
      const route = serverRoute(service, method, logger, counted, durations);
      const path = `/${route.rpc}`;
      const given = methods[method.localName];
      // Bound like connect binds it: an implementation may be an object using `this`.
      const impl = typeof given === 'function' ? given.bind(implementation) : unimplemented(route.rpc);
      const serialize = (message: Message) => asBuffer(toBinary(method.output, message));
      const deserialize = (bytes: Buffer) => fromBinary(method.input, bytes);
      if (method.methodKind === 'unary') {
        const wrapped = interceptors.reduceRight(
          (next, interceptor) => interceptor(next, method),
          impl as UnaryImplementation,
        );
        target.register(path, unaryHandler(route, wrapped), serialize, deserialize, 'unary');
      } else if (method.methodKind === 'server_streaming') {
        const handler = serverStreamHandler(route, impl as ServerStreamImplementation);
        target.register(path, handler, serialize, deserialize, 'serverStream');
      } else {
        throw new Error(`${route.rpc}: ${method.methodKind} methods are not supported by the platform`);
      }
    }
  };

  const router: GrpcRouter = {
    service(service, implementation) {
      if (servedServices.has(service.typeName)) throw new Error(`${service.typeName} is registered twice`);
      register(server, service, implementation);
      servedServices.add(service.typeName);
      return this;
    },
  };
  opts.register(router);
  router.service(Health, healthImpl);
  register(healthServer, Health, healthImpl);

  let closed: Promise<void> | undefined;

  return {
    health,
    inFlight: () => inFlight.count,
    healthCallsInFlight: () => healthCalls.count,
    async listen(port, host = '0.0.0.0') {
      const bound = await bind(server, port, host, serverCredentials(opts.tls));
      // Every registered service starts SERVING unless the caller set it before listen, and so
      // does the liveness name, which only close() changes (docs/architecture.md "Deadlines").
      for (const name of ['', ...servedServices, LIVENESS_HEALTH_SERVICE]) {
        if (health.getStatus(name) === undefined) health.setStatus(name, 'SERVING');
      }
      logger.info({ port: bound, host, tls: opts.tls ? 'mutual' : 'none' }, 'grpc server listening');
      return bound;
    },
    async listenHealth(port, host = '0.0.0.0') {
      const bound = await bind(healthServer, port, host, grpc.ServerCredentials.createInsecure());
      logger.info({ port: bound, host }, 'grpc health server listening');
      return bound;
    },
    close({ graceMs = 10_000 } = {}) {
      closed ??= drainAndClose(graceMs);
      return closed;
    },
  };

  async function drainAndClose(graceMs: number): Promise<void> {
    health.setAll('NOT_SERVING');
    health.endWatches();
    const deadline = Date.now() + graceMs;
    // Stops accepting and sends GOAWAY: clients open no new streams; running streams finish.
    const stopped = Promise.all([server, healthServer].map(shutdown));
    const drained = await waitIdle(graceMs);
    if (!drained) {
      logger.warn({ in_flight: inFlight.count, grace_ms: graceMs }, 'grpc drain timed out');
    }
    // Handlers are done; let the last responses flush and sessions close on their own.
    let flushTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      stopped,
      new Promise<void>((resolve) => {
        flushTimer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      }),
    ]);
    clearTimeout(flushTimer);
    server.forceShutdown();
    healthServer.forceShutdown();
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

/** Binds `server` to host:port; resolves with the bound port. */
function bind(server: grpc.Server, port: number, host: string, credentials: grpc.ServerCredentials) {
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new Promise<number>((resolve, reject) => {
    server.bindAsync(address, credentials, (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}

/** Stops accepting and sends GOAWAY; resolves once the server's sessions are gone. */
function shutdown(server: grpc.Server): Promise<void> {
  return new Promise((resolve) => server.tryShutdown(() => resolve()));
}

/** The grpc-js server options of createGrpcServer's options. */
function serverOptions(opts: GrpcServerOptions): grpc.ServerOptions {
  const options: grpc.ServerOptions = {};
  if (opts.readMaxBytes !== undefined) options['grpc.max_receive_message_length'] = opts.readMaxBytes;
  if (opts.maxConnectionAgeMs) {
    options['grpc.max_connection_age_ms'] = opts.maxConnectionAgeMs;
    if (opts.maxConnectionAgeGraceMs !== undefined) {
      options['grpc.max_connection_age_grace_ms'] = opts.maxConnectionAgeGraceMs;
    }
  }
  return options;
}

/** connect answers UNIMPLEMENTED for a method the implementation leaves out; so does this. */
function unimplemented(rpc: string): UnaryImplementation {
  return () => {
    throw new ConnectError(`${rpc} is not implemented`, Code.Unimplemented);
  };
}

/** A Buffer over the same bytes (grpc-js writes Buffers; toBinary gives a Uint8Array). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
