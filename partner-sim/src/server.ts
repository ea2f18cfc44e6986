import type { Logger } from '@qr-payout/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ChargeStore } from './pix/charges';
import { registerHealthRoutes } from './routes/health';
import { registerPixChargeRoutes } from './routes/pix-charges';
import { registerPixLocationRoutes } from './routes/pix-location';
import { sendProblem } from './routes/problem';
import type { SigningKey } from './signing/keys';

// The simulator's HTTP app: one route module per rail feature (payouts for every rail join here).

export type PartnerSimDeps = {
  logger: Logger;
  now: () => Date;
  signingKey: SigningKey;
  charges: ChargeStore;
  /** Known only after listen when the port is picked by the OS, hence a function. */
  publicUrl: () => string;
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

  registerHealthRoutes(app);
  registerPixChargeRoutes(app, deps);
  registerPixLocationRoutes(app, deps);
  return app;
}
