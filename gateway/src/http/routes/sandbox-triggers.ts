import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import { TRANSACTION_EVENT_TYPES } from '@qr-payout/platform/vocabulary';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../errors/api-error';
import { requestFingerprint } from '../../idempotency/fingerprint';
import { idempotencyKeyOf, requireIdempotencyKey, sendIdempotentResponse } from '../../idempotency/http';
import { runIdempotent } from '../../idempotency/run';
import {
  errorResponse,
  example,
  IDEMPOTENT_REPLAYED_HEADER,
  okResponse,
  RATE_LIMIT_HEADERS,
  withRequestId,
} from '../../openapi/responses';
import { type BodyOf, defineRoute, routeOptions } from '../../openapi/route';
import { sandboxTriggerExampleTransaction } from '../../openapi/sandbox-trigger-examples';
import { sandboxTriggerPayments } from '../../payments/sandbox-triggers';
import { tenantIdOf } from '../auth';
import { dropNullFields } from '../null-as-absent';
import { CALLBACK_URL_PROPERTY, EXECUTE_RESPONSE_SCHEMA } from '../schemas';
import { IDEMPOTENCY_DESCRIPTION, IDEMPOTENCY_KEY_HEADERS } from './execute';
import { type PayRouteDeps, payQr } from './pay';
import { AUTHENTICATED_ERRORS, IDEMPOTENT_BODY_ERRORS } from './shared-responses';

export interface SandboxTriggersRouteDeps extends PayRouteDeps {
  /** SANDBOX_MODE: false answers 403 SandboxOnly (docs/api/sandbox.md "Triggers"). */
  sandboxMode: boolean;
}

export const SANDBOX_TRIGGER_OPERATION = 'POST /v1/sandbox/triggers';

const SANDBOX_TRIGGER_REQUEST_SCHEMA = {
  type: 'object',
  required: ['event'],
  properties: {
    event: {
      type: 'string',
      enum: TRANSACTION_EVENT_TYPES,
      description:
        'The event to make happen: the transaction ends in this outcome and its webhook event follows.',
    },
    callback_url: CALLBACK_URL_PROPERTY,
  },
  additionalProperties: false,
} as const;

export const SANDBOX_TRIGGER_ROUTE = defineRoute({
  method: 'POST',
  url: '/v1/sandbox/triggers',
  schema: {
    operationId: 'triggerSandboxEvent',
    tags: ['Sandbox'],
    summary: 'Make a terminal transaction and its webhook event happen (sandbox only)',
    description:
      'A test helper (docs/api/sandbox.md "Triggers"): pays a sandbox test QR for your tenant through the ' +
      'normal pay path, with the test amount that ends in the `event` asked for (`transaction.completed`: ' +
      '`br-static-amount`; `transaction.failed`: `br-outcome-51`, refused `AC03`), and answers 201 with the ' +
      'transaction, already terminal. Its webhook event goes to your registered endpoints and to `callback_url`, ' +
      'signed like any other. Only the sandbox (`npm start`) runs it: every other deployment lists it in its ' +
      'reference too and answers 403 `SandboxOnly`, whatever the body. An unknown `event` is 400 ' +
      '`ValidationError` naming `event`. ' +
      IDEMPOTENCY_DESCRIPTION,
    headers: IDEMPOTENCY_KEY_HEADERS,
    body: SANDBOX_TRIGGER_REQUEST_SCHEMA,
    bodyExamples: example('failed', 'A failed transaction and its transaction.failed event', {
      event: 'transaction.failed',
    }),
    response: {
      '201': okResponse(
        'The transaction the trigger made, terminal.',
        EXECUTE_RESPONSE_SCHEMA,
        true,
        {
          ...example(
            'failed',
            'transaction.failed',
            withRequestId('transaction', sandboxTriggerExampleTransaction('transaction.failed')),
          ),
          ...example(
            'completed',
            'transaction.completed',
            withRequestId('transaction', sandboxTriggerExampleTransaction('transaction.completed')),
          ),
        },
        IDEMPOTENT_REPLAYED_HEADER,
      ),
      ...IDEMPOTENT_BODY_ERRORS,
      '403': errorResponse(
        ['SandboxOnly'],
        'SandboxOnly: this deployment is not the sandbox.',
        RATE_LIMIT_HEADERS,
      ),
      '409': errorResponse(
        ['IdempotencyInProgress'],
        'IdempotencyInProgress: the same key while the first request runs.',
        RATE_LIMIT_HEADERS,
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * POST /v1/sandbox/triggers (docs/api/sandbox.md "Triggers"): authenticated, then refused
 * outside the sandbox before the key or the body are looked at, then run like a pay under the
 * request's Idempotency-Key (docs/api/idempotency.md "The Idempotency-Key").
 */
export function registerSandboxTriggersRoute(app: FastifyInstance, deps: SandboxTriggersRouteDeps): void {
  const refuseOutsideSandbox = async (_request: FastifyRequest) => {
    if (!deps.sandboxMode)
      throw apiError('SandboxOnly', 'POST /v1/sandbox/triggers is only available in the sandbox.');
  };
  const payments = sandboxTriggerPayments();
  app.route<{ Body: BodyOf<typeof SANDBOX_TRIGGER_ROUTE> }>({
    ...routeOptions(SANDBOX_TRIGGER_ROUTE),
    onRequest: [deps.authenticate, refuseOutsideSandbox],
    preValidation: requireIdempotencyKey,
    preHandler: dropNullFields,
    handler: async (request, reply) => {
      const body = request.body;
      const tenantId = tenantIdOf(request);
      const key = idempotencyKeyOf(request);
      const fingerprint = requestFingerprint(SANDBOX_TRIGGER_OPERATION, body);
      const payment = payments[body.event];
      const response = await runIdempotent({
        cache: deps.idempotency,
        scope: { tenantId, key },
        fingerprint,
        publicDocsUrl: deps.publicDocsUrl,
        operation: async () => {
          const { transaction, replayed } = await payQr(deps, {
            tenantId,
            ...payment,
            callbackUrl: body.callback_url,
            key,
            fingerprint,
          });
          return { status: 201, body: { transaction: toPublicTransaction(transaction) }, replayed };
        },
      });
      return sendIdempotentResponse(reply, response);
    },
  });
}
