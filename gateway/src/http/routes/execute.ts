import { defaultExecuteWaitText } from '@qr-payout/platform/execute-wait';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { IdempotencyCache } from '../../idempotency/cache';
import { requestFingerprint } from '../../idempotency/fingerprint';
import { idempotencyKeyOf, requireIdempotencyKey, sendIdempotentResponse } from '../../idempotency/http';
import { type OperationResult, runIdempotent } from '../../idempotency/run';
import {
  EXAMPLE_EXECUTE_REQUEST,
  EXAMPLE_FAILED_TRANSACTION,
  EXAMPLE_TRANSACTION,
} from '../../openapi/examples';
import {
  describeTags,
  errorResponse,
  example,
  IDEMPOTENT_REPLAYED_HEADER,
  okResponse,
  RATE_LIMIT_HEADERS,
  withRequestId,
} from '../../openapi/responses';
import { type BodyOf, defineRoute, routeOptions } from '../../openapi/route';
import {
  type ExecuteInstructionDeps,
  executeInstruction,
  type PayerInput,
} from '../../payments/execute-instruction';
import { tenantIdOf } from '../auth';
import { dropNullFields } from '../null-as-absent';
import { EXECUTE_REQUEST_SCHEMA, EXECUTE_RESPONSE_SCHEMA } from '../schemas';
import { AUTHENTICATED_ERRORS, IDEMPOTENT_BODY_ERRORS } from './shared-responses';

/** What execute and pay share: authentication, the idempotency cache, payout's execute step. */
export interface PaymentRouteDeps {
  authenticate: onRequestAsyncHookHandler;
  idempotency: IdempotencyCache;
  execute: ExecuteInstructionDeps;
  publicDocsUrl: string;
}

export const EXECUTE_OPERATION = 'POST /v1/execute';

/**
 * The Idempotency-Key header of the payment operations (docs/api/idempotency.md "The
 * Idempotency-Key"), as documented; requireIdempotencyKey applies the rule (platform
 * `idempotency-key`, payout's too).
 */
export const IDEMPOTENCY_KEY_HEADERS = {
  type: 'object',
  required: ['Idempotency-Key'],
  properties: {
    'Idempotency-Key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      // No example value on purpose: Swagger's "Try it out" would prefill it, and every reader's
      // second try would replay the first payment (or be IdempotencyConflict with another body).
      description:
        'Unique per payment attempt: type a new UUID for each payment (for example from `uuidgen`), at most 255 printable ASCII characters, scoped to your tenant. ' +
        'A retry with the same key and the same body never pays twice and gets the first response back; the key can be reused with any body after 24 hours.',
    },
  },
} as const;

// The sandbox partner's test amounts (docs/api/sandbox.md "Test amounts"), where a reader of
// execute and pay looks for them.
export const SANDBOX_AMOUNTS_DESCRIPTION =
  "In the sandbox the last two digits of the amount pick the partner's answer: 51 failed `AC03` at once, " +
  '52 completed by polling, 53 failed `AM04` by polling, ' +
  `54 \`processing\` after the whole wait (${defaultExecuteWaitText()}) then completed by a late callback, ` +
  'anything else completed by callback (docs/api/sandbox.md "Test amounts"; test QR codes: GET /v1/sandbox/test-qrs). ';

/** What execute and pay say of their Idempotency-Key (docs/api/idempotency.md). */
export const IDEMPOTENCY_DESCRIPTION =
  'Idempotency: a missing key is 400 `IdempotencyKeyMissing`; the same key and body while the first request ' +
  'is still running is 409 `IdempotencyInProgress` (retry shortly); the same key and body after it finished returns the ' +
  "first response with `Idempotent-Replayed: true` (with this request's `request_id`); the same key with another body is " +
  '400 `IdempotencyConflict`. Only outcomes are kept: a 5xx, or a refusal before anything ran (validation, QR or amount ' +
  'errors), is not stored, so the same key can be retried. The body fingerprint is the SHA-256 of the canonical JSON of ' +
  'the parsed body (key order and spacing do not matter).';

export const EXECUTE_ROUTE = defineRoute({
  method: 'POST',
  url: '/v1/execute',
  schema: {
    operationId: 'execute',
    tags: ['Payments'],
    summary: 'Execute a resolved instruction',
    description:
      'Pays the instruction from POST /v1/resolve and answers the transaction: `instruction_id` is the ' +
      '`instruction.id` of your resolve answer (the example holds a placeholder; made-up ids are 404 ' +
      '`NotFoundError`). The call waits a bounded time ' +
      `(EXECUTE_WAIT_MS, ${defaultExecuteWaitText()} by default) for a terminal state; ` +
      'otherwise the transaction is `pending` or `processing` and ' +
      'the outcome comes by webhook or GET /v1/transactions/{id}. A rejected payment is a 200 with status `failed` and ' +
      '`error` set. An instruction executes once: another key is 409 `InstructionAlreadyExecuted`, whose body adds ' +
      '`transaction_id` (the transaction that executed it); a dynamic QR charge that another instruction paid or is ' +
      'paying is 409 `ChargeAlreadyPaid`, whose body adds `transaction_id` when that payment is yours; an expired FX quote ' +
      'is 409 `QuoteExpired` (resolve again). `payer_tax_id` is the payer’s own identifier in their own country: with ' +
      '`payer_country` (and `payer_id_type`) it is checked by that country’s rules (GET /v1/schemes `payer_identity`), and ' +
      'bad check digits, an unknown country or type are 400 `ValidationError` naming the field; without them it is sent ' +
      'as an undeclared foreign identifier (docs/payer-identity.md). ' +
      SANDBOX_AMOUNTS_DESCRIPTION +
      IDEMPOTENCY_DESCRIPTION,
    headers: IDEMPOTENCY_KEY_HEADERS,
    body: EXECUTE_REQUEST_SCHEMA,
    bodyExamples: example('brazilian_payer', 'A payer with a Brazilian CPF', EXAMPLE_EXECUTE_REQUEST),
    response: {
      '200': okResponse(
        'The transaction as it stands.',
        EXECUTE_RESPONSE_SCHEMA,
        true,
        {
          ...example('completed', 'Completed', withRequestId('transaction', EXAMPLE_TRANSACTION)),
          ...example(
            'failed',
            'Rejected by the rail (amount ending in 51 in the sandbox)',
            withRequestId('transaction', EXAMPLE_FAILED_TRANSACTION),
          ),
        },
        IDEMPOTENT_REPLAYED_HEADER,
      ),
      ...IDEMPOTENT_BODY_ERRORS,
      '404': errorResponse(
        ['NotFoundError'],
        `${describeTags(['NotFoundError'])}: no such instruction for this key.`,
        RATE_LIMIT_HEADERS,
      ),
      '409': errorResponse(
        ['IdempotencyInProgress', 'InstructionAlreadyExecuted', 'ChargeAlreadyPaid', 'QuoteExpired'],
        `${describeTags(['IdempotencyInProgress', 'InstructionAlreadyExecuted', 'ChargeAlreadyPaid', 'QuoteExpired'])}.`,
        { ...RATE_LIMIT_HEADERS, ...IDEMPOTENT_REPLAYED_HEADER },
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * The payer fields of execute and pay (docs/api/idempotency.md "Execute and pay";
 * docs/payer-identity.md); a null optional field was already removed (null-as-absent.ts), so absent
 * is the only "not set".
 */
export type PayerBody = Omit<BodyOf<typeof EXECUTE_ROUTE>, 'instruction_id'>;

/** The request's payer as payout reads it, passed through: payout alone decides what is valid. */
export function payerOf(body: PayerBody): PayerInput {
  return {
    name: body.payer_name,
    account: body.payer_account,
    taxId: body.payer_tax_id,
    country: body.payer_country,
    idType: body.payer_id_type,
  };
}

/**
 * What every payment request starts with: its tenant, its Idempotency-Key (already required) and
 * the fingerprint of its body for the idempotency rules (docs/api/idempotency.md "The Idempotency-Key"); and
 * the two steps execute and pay share: payout's execute for the request's payer, and the answer
 * run and sent under the key.
 */
export function paymentRequest(
  request: FastifyRequest<{ Body: PayerBody }>,
  deps: PaymentRouteDeps,
  operation: string,
) {
  const body = request.body;
  const tenantId = tenantIdOf(request);
  const key = idempotencyKeyOf(request);
  const fingerprint = requestFingerprint(operation, body);
  return {
    tenantId,
    key,
    fingerprint,
    /** payout ExecuteInstruction of `instructionId` with this request's payer, callback and key. */
    execute: (instructionId: string) =>
      executeInstruction(deps.execute, {
        tenantId,
        instructionId,
        payer: payerOf(body),
        // payout checks it (the one callback_url rule, services/payout/README.md "Execute").
        callbackUrl: body.callback_url,
        idempotencyKey: key,
        requestFingerprint: fingerprint,
      }),
    /**
     * Runs `work` under the request's Idempotency-Key
     * (docs/api/idempotency.md "The Idempotency-Key") and sends the answer.
     */
    answer: async (reply: FastifyReply, work: () => Promise<OperationResult>) =>
      sendIdempotentResponse(
        reply,
        await runIdempotent({
          cache: deps.idempotency,
          scope: { tenantId, key },
          fingerprint,
          publicDocsUrl: deps.publicDocsUrl,
          operation: work,
        }),
      ),
  };
}

/**
 * The hooks of every payment route (execute, pay): the API key authenticated, the Idempotency-Key
 * required, then a null optional field dropped as absent.
 */
export function paymentRouteHooks(deps: PaymentRouteDeps) {
  return { onRequest: deps.authenticate, preValidation: requireIdempotencyKey, preHandler: dropNullFields };
}

/**
 * POST /v1/execute (docs/api/idempotency.md "Execute and pay"): executes a resolved instruction
 * exactly once per Idempotency-Key (docs/api/idempotency.md "The Idempotency-Key") and answers the
 * transaction as it stands after payout's bounded wait (docs/api/idempotency.md "Execute and pay").
 */
export function registerExecuteRoute(app: FastifyInstance, deps: PaymentRouteDeps): void {
  app.route<{ Body: BodyOf<typeof EXECUTE_ROUTE> }>({
    ...routeOptions(EXECUTE_ROUTE),
    ...paymentRouteHooks(deps),
    handler: async (request, reply) => {
      const payment = paymentRequest(request, deps, EXECUTE_OPERATION);
      return payment.answer(reply, async () => {
        const { transaction, replayed } = await payment.execute(request.body.instruction_id);
        return { body: { transaction: toPublicTransaction(transaction) }, replayed };
      });
    },
  });
}
