import type { DescService } from '@bufbuild/protobuf';
import { type Client, createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { clientTraceInterceptor, networkErrorInterceptor, requestIdInterceptor } from './client-interceptors';

export type GrpcClientOptions = {
  /** Like http://127.0.0.1:50051 (HTTP/2 cleartext). */
  baseUrl: string;
  /** Deadline of a call that sets none itself (sent as grpc-timeout). */
  timeoutMs?: number;
  /** Extra interceptors, run inside the platform ones. */
  interceptors?: Interceptor[];
};

export const DEFAULT_CLIENT_TIMEOUT_MS = 5_000;

// One HTTP/2 connection per target, shared by every client of that target in the process.
const sessions = new Map<string, Http2SessionManager>();

function sessionFor(baseUrl: string): Http2SessionManager {
  let manager = sessions.get(baseUrl);
  if (!manager) {
    manager = new Http2SessionManager(baseUrl, {
      pingIntervalMs: 30_000,
      pingTimeoutMs: 10_000,
      idleConnectionTimeoutMs: 5 * 60_000,
    });
    sessions.set(baseUrl, manager);
  }
  return manager;
}

/** A typed gRPC client with tracing, x-request-id propagation and a default deadline. */
export function createGrpcClient<T extends DescService>(service: T, opts: GrpcClientOptions): Client<T> {
  const transport = createGrpcTransport({
    baseUrl: opts.baseUrl,
    sessionManager: sessionFor(opts.baseUrl),
    defaultTimeoutMs: opts.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS,
    interceptors: [
      clientTraceInterceptor(),
      requestIdInterceptor(),
      networkErrorInterceptor(),
      ...(opts.interceptors ?? []),
    ],
  });
  return createClient(service, transport);
}

/** Closes every shared HTTP/2 connection (shutdown, test teardown). */
export async function closeGrpcClients(): Promise<void> {
  for (const manager of sessions.values()) manager.abort();
  sessions.clear();
}
