import type { FastifyInstance } from 'fastify';
import type { FaultPlan, Faults } from '../payouts/faults';
import type { SimStats } from '../payouts/stats';
import { sendPayoutProblem } from './payout-problem';

// The simulator's control plane for tests (README "Fault injection"). Stats are read-only and
// always served; faults change what callers see, so they exist only with PARTNER_SIM_FAULTS=true
// (a sandbox or shared deployment cannot be broken by accident).

export type SimControlRouteDeps = {
  faults: Faults;
  stats: SimStats;
  faultsEnabled: boolean;
};

const RATE = { type: 'number', minimum: 0, maximum: 1 } as const;
const MILLISECONDS = { type: 'integer', minimum: 0, maximum: 600_000 } as const;

const faultPlanSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    properties: {
      submit: {
        type: 'array',
        maxItems: 1000,
        items: {
          oneOf: [
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind'],
              properties: { kind: { type: 'string', enum: ['error_before_accept', 'error_after_accept'] } },
            },
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind'],
              properties: { kind: { type: 'string', const: 'timeout_after_accept' }, ms: MILLISECONDS },
            },
          ],
        },
      },
      callback: {
        type: 'array',
        maxItems: 1000,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: { kind: { type: 'string', const: 'drop' } },
        },
      },
      rates: {
        type: 'object',
        additionalProperties: false,
        properties: { submit_5xx: RATE, submit_timeout: RATE, drop_callback: RATE },
      },
      latency_ms: MILLISECONDS,
      timeout_ms: MILLISECONDS,
    },
  },
} as const;

export function registerSimControlRoutes(app: FastifyInstance, deps: SimControlRouteDeps): void {
  app.get('/_sim/stats', (_request, reply) => reply.send(deps.stats.view()));

  app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      if (!deps.faultsEnabled) {
        return sendPayoutProblem(
          reply,
          404,
          'faults_disabled',
          'start the simulator with PARTNER_SIM_FAULTS=true',
        );
      }
    });
    scope.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) =>
      (error.statusCode ?? 500) < 500
        ? sendPayoutProblem(reply, 400, 'invalid_request', error.message)
        : sendPayoutProblem(reply, 500, 'internal_error', 'the simulator failed to process the request'),
    );

    scope.get('/_sim/faults', (_request, reply) => reply.send(deps.faults.view()));

    scope.post<{ Body: FaultPlan }>('/_sim/faults', { schema: faultPlanSchema }, (request, reply) => {
      const rates = request.body.rates ?? {};
      if ((rates.submit_5xx ?? 0) + (rates.submit_timeout ?? 0) > 1) {
        return sendPayoutProblem(
          reply,
          400,
          'invalid_request',
          'submit_5xx + submit_timeout must not exceed 1',
        );
      }
      deps.faults.set(request.body);
      return reply.send(deps.faults.view());
    });

    scope.delete('/_sim/faults', (_request, reply) => {
      deps.faults.clear();
      return reply.send(deps.faults.view());
    });
  });
}
