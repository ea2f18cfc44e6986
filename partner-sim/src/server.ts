import type { Logger } from '@qr-payout/platform/log';
import Fastify, { type FastifyInstance } from 'fastify';
import type { PayoutDesk } from './payouts/desk';
import type { ChargeStore } from './pix/charges';
import { registerHealthRoutes } from './routes/health';
import { registerPayoutRoutes } from './routes/payouts';
import { registerPixChargeRoutes } from './routes/pix-charges';
import { registerPixLocationRoutes } from './routes/pix-location';
import { sendProblem } from './routes/problem';
import { registerSimControlRoutes } from './routes/sim-control';
import type { SigningKey } from './signing/keys';

// The simulator's HTTP app: one route module per feature (Pix charges and locations, payouts for
// every rail, the /_sim control plane).

export type PartnerSimDeps = {
  logger: Logger;
  now: () => Date;
  signingKey: SigningKey;
  charges: ChargeStore;
  /** Known only after listen when the port is picked by the OS, hence a function. */
  publicUrl: () => string;
  /** Payouts of the five rails; the app closes it when it closes. */
  payouts: PayoutDesk;
};

// Requests are small JSON bodies; anything larger is a mistake.
const BODY_LIMIT_BYTES = 64 * 1024;

/** Built and ready to `listen` or `inject`; no listen here. */
export function buildPartnerSimApp(deps: PartnerSimDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
  });

  app.setErrorHandler(
    (error: { statusCode?: number; validation?: unknown; message: string }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        deps.logger.error({ err: error, route: request.routeOptions.url }, 'partner-sim request failed');
        return sendProblem(reply, 500, 'ErroInternoDoServidor', 'internal error');
      }
      return sendProblem(reply, status, error.validation ? 'RequisicaoInvalida' : 'Erro', error.message);
    },
  );
  app.setNotFoundHandler((_request, reply) => sendProblem(reply, 404, 'NaoEncontrado', 'no such route'));
  app.addHook('onResponse', (request, reply, done) => {
    deps.logger.debug(
      { method: request.method, route: request.routeOptions.url, status: reply.statusCode },
      'partner-sim request',
    );
    done();
  });

  // Before the server stops taking connections: answers held by a latency or timeout fault are
  // released, and no settlement or callback runs after close.
  const closing = new AbortController();
  app.addHook('preClose', async () => {
    closing.abort();
    await deps.payouts.service.close();
  });

  registerHealthRoutes(app);
  registerPixChargeRoutes(app, deps);
  registerPixLocationRoutes(app, deps);
  registerPayoutRoutes(app, {
    logger: deps.logger,
    payouts: deps.payouts.service,
    faults: deps.payouts.faults,
    stats: deps.payouts.stats,
    apiKey: deps.payouts.apiKey,
    latencyMs: deps.payouts.latencyMs,
    closing: closing.signal,
  });
  registerSimControlRoutes(app, deps.payouts);
  return app;
}
