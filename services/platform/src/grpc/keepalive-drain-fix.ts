// grpc-js 1.14 keeps its keepalive timer running on a connection the server has sent a graceful
// GOAWAY on (docs/architecture.md "Internal load balancing", "A draining connection is not
// pinged"). Every server here sends one each GRPC_MAX_CONNECTION_AGE_MS, so a client's connection
// drains every 30 s while its last calls finish. If the keepalive ping falls due meanwhile, Node
// refuses to send a ping on a closing session (`ping()` returns false), grpc-js takes that as a
// dead connection and ends every call still running on it with UNAVAILABLE "Connection dropped":
// calls the server had accepted and was answering. The fault campaign saw 3 to 7 pays at once
// answered 503 this way, every few minutes, outside any fault (upstream: grpc/grpc-node#3068,
// open). A draining connection takes no new call and each of its calls has a deadline, so it needs
// no keepalive: the ping is skipped while the session is closing, and everything else is grpc-js's.
import type { ClientHttp2Session } from 'node:http2';

type TransportInternals = {
  session: ClientHttp2Session;
  keepaliveTimer: NodeJS.Timeout | null;
  maybeSendPing(): void;
};

type ConnectorPrototype = {
  connect(...args: unknown[]): Promise<unknown>;
};

let installed = false;
const patched = new WeakSet<object>();

/** Patches grpc-js's HTTP/2 transport once per process (at its first connection); idempotent. */
export function installKeepaliveDrainFix(): void {
  if (installed) return;
  installed = true;
  // The transport class is not exported; its connector is, and hands each new transport back.
  const { Http2SubchannelConnector } = require('@grpc/grpc-js/build/src/transport.js') as {
    Http2SubchannelConnector: { prototype: ConnectorPrototype };
  };
  const connect = Http2SubchannelConnector.prototype.connect;
  Http2SubchannelConnector.prototype.connect = async function connectAndPatch(
    this: unknown,
    ...args: unknown[]
  ) {
    const transport = await connect.apply(this, args);
    patchTransport(Object.getPrototypeOf(transport) as TransportInternals);
    return transport;
  };
}

function patchTransport(prototype: TransportInternals): void {
  if (patched.has(prototype)) return;
  patched.add(prototype);
  const maybeSendPing = prototype.maybeSendPing;
  prototype.maybeSendPing = function maybeSendPingUnlessDraining(this: TransportInternals) {
    // closed and not destroyed: a GOAWAY arrived and the session waits for its last streams.
    if (this.session.closed && !this.session.destroyed) {
      this.keepaliveTimer = null;
      return;
    }
    maybeSendPing.call(this);
  };
}
