import {
  create,
  type DescMethod,
  type DescService,
  fromBinary,
  type Message,
  toBinary,
} from '@bufbuild/protobuf';
import { type CallOptions, type Client, Code, ConnectError } from '@connectrpc/connect';
import * as grpc from '@grpc/grpc-js';
import type { Attributes, Histogram } from '@opentelemetry/api';
import { durationHistogram, secondsSince } from '../metrics/instruments';
import {
  type ClientRoute,
  clientRoute,
  endClientSpan,
  requestMetadata,
  startClientSpan,
} from './client-interceptors';
import { HEALTH_CHECKED_ROUND_ROBIN, registerHealthCheckedRoundRobin } from './health-checked-round-robin';
import { installKeepaliveDrainFix } from './keepalive-drain-fix';
import { rpcMetricAttributes } from './server-interceptors';
import { fromServiceError, metadataToHeaders } from './status';
import { type GrpcTls, mutualTlsChannelCredentials } from './tls';

/** A unary call as a client method makes it: request message in, response message out. */
type ClientUnaryCall = (request: Message, options: CallOptions) => Promise<Message>;

/**
 * Wraps every unary method of a client (around the platform's span and metadata). Applied once
 * when the client is created, so it costs nothing per call.
 */
type GrpcClientInterceptor = (next: ClientUnaryCall, method: DescMethod) => ClientUnaryCall;

/** How a channel spreads calls over the addresses its host resolves to. */
type GrpcLoadBalancing = 'round_robin' | 'pick_first';

type GrpcClientOptions = {
  /**
   * Like http://127.0.0.1:50051 (HTTP/2 cleartext; https:// uses TLS). A gRPC `dns:` target
   * (dns:decoder:50051, dns://<dns server>/decoder:50051) goes to grpc-js as it is, cleartext; grpc-js
   * asks the named DNS server only under GRPC_NODE_USE_ALTERNATIVE_RESOLVER=true. With `tls`, every
   * form is dialled with mTLS.
   */
  baseUrl: string;
  /**
   * mTLS (grpcTlsSetting): the server's certificate is checked against the CA bundle and the host
   * dialled, and this process's certificate is presented as the client's. Unset: as `baseUrl` says.
   */
  tls?: GrpcTls;
  /** Deadline of a call that sets none itself (sent as grpc-timeout). */
  timeoutMs?: number;
  /** Wrap every unary method call. */
  interceptors?: GrpcClientInterceptor[];
  /**
   * round_robin (default): a connection to every address the host resolves to, calls in turn
   * over the ready ones whose health is not NOT_SERVING; pick_first: one connection, to the first
   * address that answers (docs/architecture.md "Internal load balancing").
   */
  loadBalancing?: GrpcLoadBalancing;
  /** The least time between two DNS resolutions of the host (grpc-js's default: 30 s). */
  dnsMinResolutionIntervalMs?: number;
};

const DEFAULT_CLIENT_TIMEOUT_MS = 5_000;

const BASE_CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // While calls are open, a ping every 30 s; a connection that leaves one unanswered for 10 s
  // is dropped (a peer gone without a FIN would otherwise hang calls until their deadline).
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  // An idle channel lets its connection go after five minutes and reconnects on the next call.
  'grpc.client_idle_timeout_ms': 5 * 60_000,
  // Its own subchannel, so a replaced channel (below) really opens a new connection.
  'grpc.use_local_subchannel_pool': 1,
  // channelz keeps per-call statistics nobody reads here; it costs on every call.
  'grpc.enable_channelz': 0,
  // The balancing policy is ours (below), never a DNS TXT record's: no TXT lookups.
  'grpc.service_config_disable_resolution': 1,
};

/**
 * The grpc-js options of a channel. round_robin keeps a subchannel per resolved address (and
 * leaves out the ones whose server says NOT_SERVING: health-checked-round-robin.ts) and
 * re-resolves the name whenever one of them drops (a server's max connection age, a replica going
 * away), at most once per `dnsMinResolutionIntervalMs` (docs/architecture.md "Internal load
 * balancing").
 */
function channelOptions(loadBalancing: GrpcLoadBalancing, dnsMinResolutionIntervalMs?: number) {
  const options: grpc.ChannelOptions = { ...BASE_CHANNEL_OPTIONS };
  if (loadBalancing === 'round_robin') {
    // grpc-js's round_robin, leaving out replicas whose health ('', the whole server) is NOT_SERVING.
    options['grpc.service_config'] = JSON.stringify({
      loadBalancingConfig: [{ [HEALTH_CHECKED_ROUND_ROBIN]: { serviceName: '' } }],
    });
  }
  if (dnsMinResolutionIntervalMs !== undefined) {
    options['grpc.dns_min_time_between_resolutions_ms'] = dnsMinResolutionIntervalMs;
  }
  return options;
}

/** Where and how a client's calls go; clients with equal ones share a channel. */
type ChannelSpec = {
  readonly baseUrl: string;
  readonly loadBalancing: GrpcLoadBalancing;
  readonly dnsMinResolutionIntervalMs: number | undefined;
  readonly tls: GrpcTls | undefined;
  /** The key of the shared channel. */
  readonly key: string;
};

// One channel per target and policy, shared by every client of it (with round_robin, one HTTP/2
// connection per address of the target; with pick_first, one). Calls look the channel up each
// time, so a client made before closeGrpcClients() still works after.
const channels = new Map<string, grpc.Client>();

function channelFor(spec: ChannelSpec): grpc.Client {
  let channel = channels.get(spec.key);
  // After a failed connection attempt a channel waits out a backoff (up to minutes) and fails
  // every call meanwhile. A call then gets a new channel that connects at once instead, so a
  // target that has just come (back) up serves the very next call, as when each call reached
  // for its own connection. With round_robin the channel is in TRANSIENT_FAILURE only when no
  // address is ready or connecting (grpc-js's round_robin reports READY while any one is), so a
  // dead replica among live ones does not replace the channel; all of them down does.
  if (channel?.getChannel().getConnectivityState(false) === grpc.connectivityState.TRANSIENT_FAILURE) {
    channel.close();
    channel = undefined;
  }
  if (!channel) {
    const { target, credentials } = grpcTarget(spec.baseUrl, spec.tls);
    const options = channelOptions(spec.loadBalancing, spec.dnsMinResolutionIntervalMs);
    channel = new grpc.Client(target, credentials, options);
    channels.set(spec.key, channel);
  }
  return channel;
}

/** The grpc-js target and credentials of a baseUrl (see GrpcClientOptions.baseUrl and tls). */
function grpcTarget(
  baseUrl: string,
  mutual: GrpcTls | undefined,
): { target: string; credentials: grpc.ChannelCredentials } {
  const url = new URL(baseUrl);
  const https = url.protocol === 'https:';
  const credentials = mutual
    ? mutualTlsChannelCredentials(mutual)
    : https
      ? grpc.credentials.createSsl()
      : grpc.credentials.createInsecure();
  if (url.protocol === 'dns:') return { target: baseUrl, credentials };
  // dns: explicitly: grpc-js resolves every address of the name (getaddrinfo), and re-resolves.
  const target = `dns:${url.hostname}:${url.port || (https ? 443 : 80)}`;
  return { target, credentials };
}

/** What every call of one method shares. */
type MethodCall = ClientRoute & {
  readonly channel: ChannelSpec;
  readonly path: string;
  readonly method: DescMethod;
  readonly defaultTimeoutMs: number;
  readonly serialize: (message: Message) => Buffer;
  readonly deserialize: (bytes: Buffer) => Message;
  /** rpc_client_call_duration_seconds (docs/runbooks.md "gRPC errors"). */
  readonly durations: Histogram;
  readonly metricAttributes: Attributes[];
  readonly service: DescService;
};

/** Records a finished call's duration by service, method and status code. */
function recordCall(call: MethodCall, started: number, code: number): void {
  call.durations.record(
    secondsSince(started),
    rpcMetricAttributes(call.metricAttributes, call.service, call.method, code),
  );
}

/** A typed gRPC client with tracing, x-request-id propagation and a default deadline. */
export function createGrpcClient<T extends DescService>(service: T, opts: GrpcClientOptions): Client<T> {
  installKeepaliveDrainFix();
  registerHealthCheckedRoundRobin();
  const client: Record<string, unknown> = {};
  const durations = durationHistogram(
    '@qr-payout/platform/grpc',
    'rpc_client_call_duration_seconds',
    'Duration of the gRPC calls this process made, by service, method and status code',
  );
  const loadBalancing = opts.loadBalancing ?? 'round_robin';
  const channel: ChannelSpec = {
    baseUrl: opts.baseUrl,
    loadBalancing,
    dnsMinResolutionIntervalMs: opts.dnsMinResolutionIntervalMs,
    tls: opts.tls,
    key: [
      loadBalancing,
      opts.dnsMinResolutionIntervalMs ?? '',
      opts.tls ? JSON.stringify(opts.tls) : '',
      opts.baseUrl,
    ].join(' '),
  };
  for (const method of service.methods) {
    const call: MethodCall = {
      ...clientRoute(service, method),
      channel,
      path: `/${service.typeName}/${method.name}`,
      method,
      defaultTimeoutMs: opts.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS,
      serialize: (message) => asBuffer(toBinary(method.input, message)),
      deserialize: (bytes) => fromBinary(method.output, bytes),
      durations,
      metricAttributes: [],
      service,
    };
    if (method.methodKind === 'unary') {
      const base: ClientUnaryCall = (request, options) => unary(call, request, options);
      const wrapped = (opts.interceptors ?? []).reduceRight((next, hook) => hook(next, method), base);
      client[method.localName] = (request: unknown, options?: CallOptions) => {
        // A request that is not a valid init shape fails the promise, as with connect's client.
        let message: Message;
        try {
          message = create(method.input, request as never);
        } catch (err) {
          return Promise.reject(err);
        }
        return wrapped(message, options ?? {});
      };
    } else if (method.methodKind === 'server_streaming') {
      client[method.localName] = (request: unknown, options?: CallOptions) =>
        serverStream(call, request, options ?? {});
    } else {
      client[method.localName] = () => {
        throw new ConnectError(`${call.rpc}: ${method.methodKind} is not supported`, Code.Unimplemented);
      };
    }
  }
  return client as Client<T>;
}

/** Closes every shared channel (shutdown, test teardown). */
export async function closeGrpcClients(): Promise<void> {
  for (const channel of channels.values()) channel.close();
  channels.clear();
}

function callOptions(call: MethodCall, options: CallOptions): grpc.CallOptions {
  // 0 (or less) means no deadline: a long-lived call such as Health.Watch.
  const timeoutMs = options.timeoutMs ?? call.defaultTimeoutMs;
  return timeoutMs > 0 ? { deadline: Date.now() + timeoutMs } : {};
}

// Why a call the caller aborted failed: its signal's reason, as connect reports it.
function abortError(signal: AbortSignal): ConnectError {
  return ConnectError.from(signal.reason, Code.Canceled);
}

// A stream the server refused (HTTP/2 REFUSED_STREAM: it reached no handler, e.g. sent just as a
// connection reached its max age) is safe to send again. grpc-js retries one once, on another
// connection; when that one is refused as well (two connections closing together), the call is
// sent again here, up to twice more, within its deadline (docs/architecture.md "Internal load
// balancing").
const REFUSED_STREAM_RETRIES = 2;

function unary(call: MethodCall, request: Message, options: CallOptions): Promise<Message> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const started = performance.now();
  const span = startClientSpan(call);
  const metadata = requestMetadata(span, options.headers);
  // One deadline for every attempt.
  const grpcOptions = callOptions(call, options);
  return new Promise((resolve, reject) => {
    let pending: grpc.ClientUnaryCall | undefined;
    // Only a call that can be aborted pays for the listener.
    const cancel = signal ? () => pending?.cancel() : undefined;
    if (cancel) signal?.addEventListener('abort', cancel);
    const attempt = (retriesLeft: number) => {
      pending = channelFor(call.channel).makeUnaryRequest(
        call.path,
        call.serialize,
        call.deserialize,
        request,
        retriesLeft === REFUSED_STREAM_RETRIES ? metadata : metadata.clone(),
        grpcOptions,
        (err, response) => {
          if (err && retriesLeft > 0 && isRefusedStream(err) && !signal?.aborted) {
            attempt(retriesLeft - 1);
            return;
          }
          if (cancel) signal?.removeEventListener('abort', cancel);
          if (err) {
            const error = signal?.aborted ? abortError(signal) : fromServiceError(err);
            endClientSpan(span, error.code);
            recordCall(call, started, error.code);
            reject(error);
          } else {
            endClientSpan(span, 0);
            recordCall(call, started, 0);
            resolve(response as Message);
          }
        },
      );
      observeHeaders(pending, options);
    };
    attempt(REFUSED_STREAM_RETRIES);
  });
}

/** grpc-js reports an RST_STREAM(REFUSED_STREAM) as UNAVAILABLE with this text, and only it. */
function isRefusedStream(status: grpc.StatusObject): boolean {
  return status.code === grpc.status.UNAVAILABLE && status.details === 'Stream refused by server';
}

async function* serverStream(
  call: MethodCall,
  request: unknown,
  options: CallOptions,
): AsyncGenerator<Message> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const message = create(call.method.input, request as never);
  const started = performance.now();
  const span = startClientSpan(call);
  const stream = channelFor(call.channel).makeServerStreamRequest(
    call.path,
    call.serialize,
    call.deserialize,
    message,
    requestMetadata(span, options.headers),
    callOptions(call, options),
  );
  // Cancelling after the consumer stopped reading ends the call with a CANCELLED error that no
  // iterator listens for any more: without a listener it would be thrown at the process.
  stream.on('error', ignore);
  const cancel = () => stream.cancel();
  signal?.addEventListener('abort', cancel);
  observeHeaders(stream, options);
  let code = 0;
  try {
    for await (const message of stream) yield message as Message;
  } catch (err) {
    const error = signal?.aborted
      ? abortError(signal)
      : isServiceError(err)
        ? fromServiceError(err)
        : ConnectError.from(err);
    code = error.code;
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancel);
    // The consumer may stop early (break): end the stream instead of leaving it open.
    stream.cancel();
    endClientSpan(span, code);
    recordCall(call, started, code);
  }
}

function observeHeaders(
  call: grpc.ClientUnaryCall | grpc.ClientReadableStream<unknown>,
  options: CallOptions,
) {
  const { onHeader, onTrailer } = options;
  if (onHeader) call.on('metadata', (metadata: grpc.Metadata) => onHeader(metadataToHeaders(metadata)));
  if (onTrailer) {
    call.on('status', (status: grpc.StatusObject) => {
      // A refused attempt sent no trailers; the attempt sent again will.
      if (!isRefusedStream(status)) onTrailer(metadataToHeaders(status.metadata));
    });
  }
}

function ignore(): void {}

function isServiceError(err: unknown): err is grpc.ServiceError {
  return (
    err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === 'number' && 'details' in err
  );
}

/** A Buffer over the same bytes (grpc-js writes Buffers; toBinary gives a Uint8Array). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
