import type { FastifyInstance } from 'fastify';
import { apiError } from '../../errors/api-error';

export interface Readiness {
  /** Why the gateway cannot take traffic, or undefined when it can. */
  notReadyReason(): Promise<string | undefined>;
}

/** /healthz: the process is alive. /readyz: 503 while shutting down or without its database. */
export function registerHealthRoutes(app: FastifyInstance, deps: { readiness: Readiness }): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    const reason = await deps.readiness.notReadyReason();
    if (reason)
      throw apiError('ServiceUnavailable', `Not ready: ${reason}.`, { headers: { 'retry-after': '1' } });
    return { status: 'ok' };
  });
}
