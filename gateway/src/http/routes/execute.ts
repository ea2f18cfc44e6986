import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { IdempotencyCache } from '../../idempotency/cache';
import { requestFingerprint } from '../../idempotency/fingerprint';
import { idempotencyKeyOf, requireIdempotencyKey, sendIdempotentResponse } from '../../idempotency/http';
import { type OperationResult, runIdempotent } from '../../idempotency/run';
import {
  type ExecuteInstructionDeps,
  executeInstruction,
  type PayerInput,
} from '../../payments/execute-instruction';
import { dropNullFields } from '../null-as-absent';
import { EXECUTE_REQUEST_SCHEMA } from '../schemas';

/** What execute and pay share: authentication, the idempotency cache, payout's execute step. */
export interface PaymentRouteDeps {
  authenticate: onRequestAsyncHookHandler;
  idempotency: IdempotencyCache;
  execute: ExecuteInstructionDeps;
  publicDocsUrl: string;
}

interface ExecuteBody extends PayerBody {
  instruction_id: string;
}

export const EXECUTE_OPERATION = 'POST /v1/execute';

/**
 * The payer fields of execute and pay (docs/api/idempotency.md "Execute and pay";
 * docs/payer-identity.md); a null optional field was already removed (null-as-absent.ts), so absent
 * is the only "not set".
 */
export interface PayerBody {
  payer_name: string;
  payer_account: string;
  payer_tax_id: string;
  payer_country?: string;
  payer_id_type?: string;
  callback_url?: string;
}

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
  const tenantId = request.auth?.tenantId ?? '';
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
 * POST /v1/execute (docs/api/idempotency.md "Execute and pay"): executes a resolved instruction
 * exactly once per Idempotency-Key (docs/api/idempotency.md "The Idempotency-Key") and answers the
 * transaction as it stands after payout's bounded wait (docs/api/idempotency.md "Execute and pay").
 */
export function registerExecuteRoute(app: FastifyInstance, deps: PaymentRouteDeps): void {
  app.post<{ Body: ExecuteBody }>(
    '/v1/execute',
    {
      onRequest: deps.authenticate,
      preValidation: requireIdempotencyKey,
      schema: { body: EXECUTE_REQUEST_SCHEMA },
      preHandler: dropNullFields,
    },
    async (request, reply) => {
      const payment = paymentRequest(request, deps, EXECUTE_OPERATION);
      return payment.answer(reply, async () => {
        const { transaction, replayed } = await payment.execute(request.body.instruction_id);
        return { body: { transaction: toPublicTransaction(transaction) }, replayed };
      });
    },
  );
}
