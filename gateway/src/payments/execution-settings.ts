import type { Client } from '@connectrpc/connect';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { Logger } from 'pino';
import { createRefreshingValue } from '../cache/refreshing-value';

// The settings of execute and pay that payout owns (docs/architecture.md "Idempotency"): how long
// payout waits for a terminal state (its EXECUTE_WAIT_MS) and how long it remembers an
// idempotency key. The gateway keeps no copy that could disagree: it asks payout
// (GetExecutionSettings) on first use and re-reads them every few minutes, as it does fx's
// currency list. Until payout has answered once, a payment fails as it would with payout down.

export interface ExecutionSettings {
  /** How long execute and pay wait for a terminal state: the call's deadline is this plus GRPC_TIMEOUT_MS. */
  executeWaitMs: number;
  /** How long a key is remembered after its first use: the idempotency cache keeps a response as long. */
  idempotencyKeyTtlMs: number;
}

export interface ExecutionSettingsSource {
  /** Rejects only while payout never answered. */
  get(): Promise<ExecutionSettings>;
}

/** Re-read this often: payout's settings change only with its deployment. */
const REFRESH_MS = 5 * 60_000;

export function createExecutionSettings(deps: {
  payout: Pick<Client<typeof PayoutService>, 'getExecutionSettings'>;
  logger: Logger;
  ttlMs?: number;
}): ExecutionSettingsSource {
  return createRefreshingValue({
    what: 'payout execution settings',
    logger: deps.logger,
    ttlMs: deps.ttlMs ?? REFRESH_MS,
    fetch: async () => {
      const res = await deps.payout.getExecutionSettings({});
      return { executeWaitMs: res.executeWaitMs, idempotencyKeyTtlMs: res.idempotencyKeyTtlMs };
    },
  });
}
