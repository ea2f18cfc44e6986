import type { Metadata } from '@grpc/grpc-js';
import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

// The request id (the request context's, README "Request context") travels in this header on every hop.
export const REQUEST_ID_HEADER = 'x-request-id';

// W3C trace context travels in the gRPC request metadata (grpc-js has no OTel integration of its
// own and Node's http instrumentation does not cover http2: README "Telemetry").
export const metadataGetter: TextMapGetter<Metadata> = {
  keys: (carrier) => Object.keys(carrier.getMap()),
  get: (carrier, key) => {
    const values = carrier.get(key);
    if (values.length === 0) return undefined;
    return values.length === 1 ? String(values[0]) : values.map(String);
  },
};

export const metadataSetter: TextMapSetter<Metadata> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/** The first text value of a metadata key, or '' (what a missing header reads as). */
export function firstValue(metadata: Metadata, key: string): string {
  const values = metadata.get(key);
  return values.length > 0 && typeof values[0] === 'string' ? values[0] : '';
}
