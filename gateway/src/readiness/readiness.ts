import type { Readiness } from '../http/routes/health';
import type { ReadinessStore } from './store';

/** Not ready while shutting down (checked first, no I/O) or when the database does not answer in time. */
export function createReadiness(deps: {
  store: ReadinessStore;
  timeoutMs?: number;
}): Readiness & { beginShutdown(): void } {
  const timeoutMs = deps.timeoutMs ?? 1_000;
  const { store } = deps;
  let shuttingDown = false;
  return {
    beginShutdown() {
      shuttingDown = true;
    },
    async notReadyReason() {
      if (shuttingDown) return 'shutting down';
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      });
      try {
        await Promise.race([store.pingDatabase(), timeout]);
        return undefined;
      } catch {
        return 'database unreachable';
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
