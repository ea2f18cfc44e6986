import { Code, ConnectError } from '@connectrpc/connect';
import { findTrailerError, setTrailerStatus } from '@connectrpc/connect/protocol-grpc';
import { Metadata, type ServiceError, type StatusObject } from '@grpc/grpc-js';

// The standard rich error model: a google.rpc.Status{code, message, details: [Any]} in this
// trailer. connect's own helpers encode and decode it, so the bytes are exactly what connect
// clients and servers (and grpc-go, grpc-java) exchange.
const STATUS_DETAILS = 'grpc-status-details-bin';
const VALID_KEY = /^[0-9a-z_.-]+$/;
const VALID_TEXT_VALUE = /^[ -~]*$/;
// Set by the transport itself: an error's or a handler's metadata never carries them over.
const TRANSPORT_KEYS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'accept-encoding',
  'te',
  'trailer',
  'host',
  'user-agent',
  'date',
]);

/** Copies application headers into gRPC metadata (`-bin` values are base64 in a Headers). */
export function headersToMetadata(headers: Headers, into: Metadata = new Metadata()): Metadata {
  headers.forEach((value, key) => {
    if (!VALID_KEY.test(key) || TRANSPORT_KEYS.has(key) || key.startsWith('grpc-')) return;
    if (key.endsWith('-bin')) into.add(key, Buffer.from(value, 'base64'));
    // grpc-js throws on text it cannot send; such a header is dropped, never the whole status.
    else if (VALID_TEXT_VALUE.test(value)) into.add(key, value);
  });
  return into;
}

/** gRPC metadata as a Headers (binary values base64, as connect represents them). */
export function metadataToHeaders(metadata: Metadata): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(metadata.toJSON())) {
    for (const value of values)
      headers.append(key, typeof value === 'string' ? value : value.toString('base64'));
  }
  return headers;
}

/** What a server sends for a ConnectError: its code, its message and its details. */
export function toGrpcStatus(err: ConnectError): Partial<StatusObject> {
  const trailer = setTrailerStatus(new Headers(), err);
  const metadata = headersToMetadata(trailer);
  const details = trailer.get(STATUS_DETAILS);
  if (details !== null) metadata.set(STATUS_DETAILS, Buffer.from(details, 'base64'));
  // connect's Code and gRPC's status numbers are the same numbers.
  return { code: err.code as number, details: err.rawMessage, metadata };
}

// Socket errors that grpc-js names in an UNAVAILABLE status: kept as the cause's `code`, as a
// socket error would carry it, so logs and callers can tell a refused connection from the rest.
const NETWORK_ERROR =
  /\b(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)\b/;

/**
 * A grpc-js call error as the ConnectError callers check (`err.code === Code.X`, details for
 * `readErrorDetail`). gRPC status numbers and connect Codes are the same numbers.
 */
export function fromServiceError(err: ServiceError): ConnectError {
  const headers = metadataToHeaders(err.metadata ?? new Metadata());
  const rich = headers.has(STATUS_DETAILS) ? findTrailerError(headers) : undefined;
  const status: number = err.code;
  const code = rich?.code ?? (status in Code ? (status as Code) : Code.Unknown);
  const network = status === Code.Unavailable ? NETWORK_ERROR.exec(err.details) : null;
  const cause = network ? Object.assign(new Error(err.details), { code: network[1] }) : err;
  const error = new ConnectError(rich?.rawMessage ?? err.details, code, headers, undefined, cause);
  if (rich) error.details = rich.details;
  return error;
}
