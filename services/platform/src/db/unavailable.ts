// A PostgreSQL that is down, restarting or unreachable is a dependency outage, not a bug: the caller
// gets UNAVAILABLE (the gateway's 503 ServiceUnavailable, docs/api/errors.md "The error body"),
// never INTERNAL. Told apart from query errors by the SQLSTATE classes PostgreSQL uses for them and
// by the socket and driver errors node-postgres throws when there is no session at all.

import { types } from 'node:util';

// Class 08 connection exception; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
// cannot_connect_now (starting up or in recovery).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// node-postgres' own messages for a session that died or never came, or a query its client-side
// deadline (`query_timeout`, docs/architecture.md "Deadlines") ended: a silent link or an
// overloaded server, not a bug. A client ended after such a timeout refuses later queries.
const DRIVER_MESSAGE =
  /^(Connection terminated unexpectedly|Connection terminated due to connection timeout|Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout)$/;

/** True when `err` says the database could not be reached or dropped the session. */
export function isDatabaseUnavailable(err: unknown): boolean {
  // isNativeError too: a socket error is made by Node's own realm, which is not a vm context's
  // (jest's) `Error`.
  if (!(err instanceof Error || types.isNativeError(err))) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  return DRIVER_MESSAGE.test(err.message);
}
