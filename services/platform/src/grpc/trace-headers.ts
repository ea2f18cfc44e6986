import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

// W3C trace context travels in the gRPC request headers (connect-es has no OTel integration and
// Node's http instrumentation does not cover http2: architecture-anchors §4g).
export const headersGetter: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

export const headersSetter: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};
