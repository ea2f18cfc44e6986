// How long execute and pay wait for a terminal state when the request names no wait: payout's
// EXECUTE_WAIT_MS default (docs/api/idempotency.md "Execute and pay"). Payout reads the variable;
// the number lives here, in the shared library, because the gateway's reference and sandbox pages
// and the sandbox banner tell integrators about it too (docs/api/sandbox.md "Test amounts": a pay
// of an amount ending in 54 waits all of it), and they must not say another number.

/** EXECUTE_WAIT_MS when unset, in milliseconds. */
export const DEFAULT_EXECUTE_WAIT_MS = 8_000;

/** The default wait as the docs write it: "8 s". */
export function defaultExecuteWaitText(): string {
  return `${DEFAULT_EXECUTE_WAIT_MS / 1000} s`;
}
