import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { BinaryReader, type WireType } from '@bufbuild/protobuf/wire';

/** One exported span, reduced to what the trace assertions need. */
export interface ReceivedSpan {
  service: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  /** The span's attributes (string, bool, int and double values; others as ''). */
  attributes: Record<string, AttributeValue>;
  /** The values of its events' attributes (an exception's message, say), as text. */
  eventValues: string[];
  /** The span contexts it links to (Span.links). */
  links: { traceId: string; spanId: string }[];
}

export type AttributeValue = string | number | boolean;

export const SPAN_KIND_SERVER = 2;
export const SPAN_KIND_CLIENT = 3;
export const SPAN_KIND_PRODUCER = 4;
export const SPAN_KIND_CONSUMER = 5;

export interface OtlpReceiver {
  /** Where to point OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  tracesUrl: string;
  spans: ReceivedSpan[];
  /** Resolves once `predicate` holds for the spans received so far (polls), or rejects at the deadline. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// The OTLP trace protobuf (opentelemetry/proto/collector/trace/v1) read field by field: only the
// handful of fields used here, everything else skipped by wire type.
function readMessage(
  bytes: Uint8Array,
  onField: (fieldNo: number, reader: BinaryReader, wire: WireType) => boolean,
) {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [fieldNo, wire] = reader.tag();
    if (!onField(fieldNo, reader, wire)) reader.skip(wire, fieldNo);
  }
}

/** AnyValue.string_value (field 1); '' for any other kind of value. */
function stringValueOf(anyValue: Uint8Array): string {
  let value = '';
  readMessage(anyValue, (no, r) => {
    if (no !== 1) return false;
    value = r.string();
    return true;
  });
  return value;
}

/** AnyValue's string (1), bool (2), int (3) or double (4); '' for arrays, maps and bytes. */
function anyValueOf(anyValue: Uint8Array): AttributeValue {
  let value: AttributeValue = '';
  readMessage(anyValue, (no, r) => {
    if (no === 1) value = r.string();
    else if (no === 2) value = r.bool();
    else if (no === 3) value = Number(r.int64());
    else if (no === 4) value = r.double();
    else return false;
    return true;
  });
  return value;
}

/** A KeyValue (key 1, AnyValue 2). */
function keyValueOf(bytes: Uint8Array): [string, AttributeValue] {
  let key = '';
  let value: AttributeValue = '';
  readMessage(bytes, (no, r) => {
    if (no === 1) key = r.string();
    else if (no === 2) value = anyValueOf(r.bytes());
    else return false;
    return true;
  });
  return [key, value];
}

function serviceNameOfResource(resource: Uint8Array): string {
  let service = '';
  readMessage(resource, (no, r) => {
    if (no !== 1) return false;
    let key = '';
    let value = '';
    readMessage(r.bytes(), (kvNo, kv) => {
      if (kvNo === 1) key = kv.string();
      else if (kvNo === 2) value = stringValueOf(kv.bytes());
      else return false;
      return true;
    });
    if (key === 'service.name') service = value;
    return true;
  });
  return service;
}

function decodeSpan(bytes: Uint8Array, service: string): ReceivedSpan {
  const span: ReceivedSpan = {
    service,
    name: '',
    kind: 0,
    traceId: '',
    spanId: '',
    parentSpanId: '',
    attributes: {},
    eventValues: [],
    links: [],
  };
  readMessage(bytes, (no, r) => {
    if (no === 1) span.traceId = hex(r.bytes());
    else if (no === 2) span.spanId = hex(r.bytes());
    else if (no === 4) span.parentSpanId = hex(r.bytes());
    else if (no === 5) span.name = r.string();
    else if (no === 6) span.kind = r.int32();
    else if (no === 9) {
      const [key, value] = keyValueOf(r.bytes());
      span.attributes[key] = value;
    } else if (no === 11) {
      // Span.Event: attributes are its field 3.
      readMessage(r.bytes(), (eventNo, e) => {
        if (eventNo !== 3) return false;
        span.eventValues.push(String(keyValueOf(e.bytes())[1]));
        return true;
      });
    } else if (no === 13) {
      // Span.Link: trace_id 1, span_id 2.
      const link = { traceId: '', spanId: '' };
      readMessage(r.bytes(), (linkNo, l) => {
        if (linkNo === 1) link.traceId = hex(l.bytes());
        else if (linkNo === 2) link.spanId = hex(l.bytes());
        else return false;
        return true;
      });
      span.links.push(link);
    } else return false;
    return true;
  });
  return span;
}

export function decodeProtobufTraces(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  readMessage(body, (no, r) => {
    if (no !== 1) return false;
    let service = '';
    const scopeSpans: Uint8Array[] = [];
    readMessage(r.bytes(), (rsNo, rs) => {
      if (rsNo === 1) service = serviceNameOfResource(rs.bytes());
      else if (rsNo === 2) scopeSpans.push(rs.bytes());
      else return false;
      return true;
    });
    for (const scope of scopeSpans) {
      readMessage(scope, (ssNo, ss) => {
        if (ssNo !== 2) return false;
        spans.push(decodeSpan(ss.bytes(), service));
        return true;
      });
    }
    return true;
  });
  return spans;
}

type JsonKeyValue = {
  key: string;
  value?: { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
};

function jsonValueOf(value: JsonKeyValue['value']): AttributeValue {
  if (value?.stringValue !== undefined) return value.stringValue;
  if (value?.boolValue !== undefined) return value.boolValue;
  if (value?.intValue !== undefined) return Number(value.intValue);
  return value?.doubleValue ?? '';
}

type JsonTraces = {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind?: number;
        attributes?: JsonKeyValue[];
        events?: Array<{ attributes?: JsonKeyValue[] }>;
        links?: Array<{ traceId: string; spanId: string }>;
      }>;
    }>;
  }>;
};

export function decodeJsonTraces(body: Buffer): ReceivedSpan[] {
  const doc = JSON.parse(body.toString('utf8')) as JsonTraces;
  return (doc.resourceSpans ?? []).flatMap((rs) => {
    const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '';
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        service,
        name: s.name,
        kind: s.kind ?? 0,
        traceId: s.traceId.toLowerCase(),
        spanId: s.spanId.toLowerCase(),
        parentSpanId: (s.parentSpanId ?? '').toLowerCase(),
        attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, jsonValueOf(a.value)])),
        eventValues: (s.events ?? []).flatMap((e) =>
          (e.attributes ?? []).map((a) => String(jsonValueOf(a.value))),
        ),
        links: (s.links ?? []).map((l) => ({
          traceId: l.traceId.toLowerCase(),
          spanId: l.spanId.toLowerCase(),
        })),
      })),
    );
  });
}

/** A tiny OTLP/HTTP trace receiver (protobuf or JSON) on 127.0.0.1, port chosen by the kernel. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const json = (req.headers['content-type'] ?? '').includes('json');
        spans.push(...(json ? decodeJsonTraces(body) : decodeProtobufTraces(body)));
        // An empty ExportTraceServiceResponse is a full success in both encodings.
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        res.end(json ? '{}' : undefined);
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    async waitFor(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(spans)) {
        if (Date.now() > deadline)
          throw new Error(`spans not received within ${timeoutMs} ms (${spans.length} so far)`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
