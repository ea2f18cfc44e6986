import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@qr-payout/platform/log';
import { ORIGINATOR_DOCUMENT_TYPES, RESIDENCIES } from '@qr-payout/platform/partner-protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Faults } from '../payouts/faults';
import { originatorProblem } from '../payouts/originator';
import { RAIL_CURRENCY, RAILS, type SubmitPayoutBody } from '../payouts/protocol';
import type { PayoutService } from '../payouts/service';
import type { SimStats } from '../payouts/stats';
import { sendPayoutProblem } from './payout-problem';

// The partner payout protocol over HTTP (docs/partner-protocol.md): submit a payout under an
// Idempotency-Key, read it by id or by key. Bearer-key auth, fault injection and request counting
// apply to these routes only (a plugin scope, so the Pix routes keep their own error bodies).

export type PayoutRouteDeps = {
  logger: Logger;
  payouts: PayoutService;
  faults: Faults;
  stats: SimStats;
  apiKey: string;
  /** PARTNER_SIM_LATENCY_MS; a fault plan's latency_ms replaces it. */
  latencyMs: number;
  /** Aborted when the simulator closes: held answers are released at once. */
  closing: AbortSignal;
};

const TEXT_ID = { type: 'string', minLength: 1, maxLength: 140 } as const;

const submitSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['rail', 'amount', 'creditor', 'debtor'],
    properties: {
      rail: { type: 'string', enum: [...RAILS] },
      amount: {
        type: 'object',
        additionalProperties: false,
        required: ['currency', 'amount_minor'],
        properties: {
          currency: { type: 'string', pattern: '^[A-Z]{3}$' },
          // A positive integer that fits an int64.
          amount_minor: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' },
        },
      },
      creditor: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'account', 'account_type'],
        properties: {
          name: TEXT_ID,
          account: { type: 'string', minLength: 1, maxLength: 256 },
          account_type: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,39}$' },
          tax_id: { type: 'string', minLength: 1, maxLength: 32 },
        },
      },
      debtor: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'account', 'residency', 'document'],
        properties: {
          name: TEXT_ID,
          account: { type: 'string', minLength: 1, maxLength: 256 },
          residency: { type: 'string', enum: [...RESIDENCIES] },
          document: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'number', 'issuing_country'],
            properties: {
              type: { type: 'string', enum: [...ORIGINATOR_DOCUMENT_TYPES] },
              number: { type: 'string', minLength: 1, maxLength: 64 },
              issuing_country: { type: ['string', 'null'], pattern: '^[A-Z]{2}$' },
            },
          },
        },
      },
      references: {
        type: 'object',
        maxProperties: 20,
        propertyNames: { pattern: '^[a-z][a-z0-9_]{0,39}$' },
        additionalProperties: { type: 'string', maxLength: 140 },
      },
      callback_url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 },
    },
  },
} as const;

// Printable ASCII without spaces, as Stripe's keys (≤ 255 characters).
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

// Compared as digests so neither the length nor the content leaks through timing.
function isApiKey(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(apiKey));
}

async function hold(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal });
  } catch (err) {
    if (!(err instanceof Error && err.name === 'AbortError')) throw err;
  }
}

function internalError(reply: FastifyReply) {
  return sendPayoutProblem(reply, 500, 'internal_error', 'the partner failed to process the request');
}

export function registerPayoutRoutes(app: FastifyInstance, deps: PayoutRouteDeps): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      deps.stats.recordRequest();
      await hold(deps.faults.latencyMs() ?? deps.latencyMs, deps.closing);
      if (!isApiKey(request.headers.authorization, deps.apiKey)) {
        return sendPayoutProblem(reply, 401, 'unauthorized', 'send Authorization: Bearer <api key>');
      }
    });

    scope.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 415) return sendPayoutProblem(reply, 415, 'unsupported_media_type', error.message);
      if (status === 413) return sendPayoutProblem(reply, 413, 'payload_too_large', error.message);
      if (status < 500) return sendPayoutProblem(reply, 400, 'invalid_request', error.message);
      deps.logger.error({ err: error, route: request.routeOptions.url }, 'partner-sim payout request failed');
      return internalError(reply);
    });

    scope.post<{ Body: SubmitPayoutBody }>(
      '/v1/payouts',
      { schema: submitSchema },
      async (request, reply) => {
        const key = request.headers['idempotency-key'];
        if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
          return sendPayoutProblem(
            reply,
            400,
            'idempotency_key_missing',
            'send Idempotency-Key: 1 to 255 printable ASCII characters (our transaction id)',
          );
        }
        const body = request.body;
        if (RAIL_CURRENCY[body.rail] !== body.amount.currency) {
          return sendPayoutProblem(
            reply,
            400,
            'currency_not_supported',
            `${body.rail} settles ${RAIL_CURRENCY[body.rail]}, not ${body.amount.currency}`,
          );
        }
        const inconsistent = originatorProblem(body.rail, body.debtor);
        if (inconsistent !== undefined) return sendPayoutProblem(reply, 400, 'invalid_request', inconsistent);

        const fault = deps.faults.nextSubmitFault();
        if (fault?.kind === 'error_before_accept') return internalError(reply);
        const result = deps.payouts.submit(key, body);
        if (result.kind === 'conflict') {
          return sendPayoutProblem(
            reply,
            409,
            'idempotency_conflict',
            'this Idempotency-Key was first used with another body; nothing was created',
            { payout_id: result.payoutId },
          );
        }
        if (fault?.kind === 'error_after_accept') return internalError(reply);
        if (fault?.kind === 'timeout_after_accept') await hold(fault.ms, deps.closing);
        return reply.code(result.kind === 'created' ? 201 : 200).send(result.payout);
      },
    );

    scope.get<{ Querystring: { idempotency_key?: string } }>(
      '/v1/payouts',
      {
        schema: {
          querystring: {
            type: 'object',
            required: ['idempotency_key'],
            properties: { idempotency_key: { type: 'string', minLength: 1, maxLength: 255 } },
          },
        },
      },
      async (request, reply) => {
        const payout = deps.payouts.byIdempotencyKey(request.query.idempotency_key ?? '');
        if (!payout)
          return sendPayoutProblem(reply, 404, 'payout_not_found', 'no payout with this idempotency key');
        return reply.send(payout);
      },
    );

    scope.get<{ Params: { id: string } }>('/v1/payouts/:id', async (request, reply) => {
      const payout = deps.payouts.byId(request.params.id);
      if (!payout) return sendPayoutProblem(reply, 404, 'payout_not_found', 'no payout with this id');
      return reply.send(payout);
    });
  });
}
