import { createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import type { ManagedProcess } from './processes';

export class NotReadyError extends Error {}

/**
 * Polls `probe` until it returns true, failing early when the process dies and after `timeoutMs`
 * otherwise; either failure carries the last lines of the child's log.
 */
export async function waitUntilReady(
  proc: ManagedProcess,
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (proc.hasExited()) {
      throw new NotReadyError(
        `${proc.name} exited (${await proc.exited}) before ${what}; last log lines:\n${proc.logTail()}`,
      );
    }
    try {
      if (await probe()) return;
      lastError = 'answered, not ready';
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new NotReadyError(
    `${proc.name}: no ${what} within ${timeoutMs} ms (${lastError}); last log lines:\n${proc.logTail()}`,
  );
}

/** grpc.health.v1.Health/Check on the whole server (''), through the platform's client. */
export function grpcServing(baseUrl: string): () => Promise<boolean> {
  const health = createGrpcClient(Health, { baseUrl, timeoutMs: 1_000 });
  return async () =>
    (await health.check({ service: '' })).status === HealthCheckResponse_ServingStatus.SERVING;
}

/** An HTTP GET that answers 200 (the gateway's /readyz). */
export function httpOk(url: string): () => Promise<boolean> {
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.status === 200;
  };
}
