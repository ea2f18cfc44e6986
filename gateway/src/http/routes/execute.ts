import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { IdempotencyCache } from '../../idempotency/cache';
import { requestFingerprint } from '../../idempotency/fingerprint';
import { idempotencyKeyOf, requireIdempotencyKey, sendIdempotentResponse } from '../../idempotency/http';
import { runIdempotent } from '../../idempotency/run';
import {
  checkCallbackUrl,
  type ExecuteInstructionDeps,
  executeInstruction,
} from '../../payments/execute-instruction';
import { toPublicTransaction } from '../presenters/transaction';
import { EXECUTE_REQUEST_SCHEMA } from '../schemas';

/** What execute and pay share: authentication, the idempotency cache, payout's execute step. */
export interface PaymentRouteDeps {
  authenticate: onRequestAsyncHookHandler;
  idempotency: IdempotencyCache;
  execute: ExecuteInstructionDeps;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private callback_url hosts (sandbox, tests). */
  allowPrivateCallbackTargets: boolean;
  publicDocsUrl: string;
}

interface ExecuteBody {
  instruction_id: string;
  payer_name: string;
  payer_account: string;
  payer_tax_id: string;
  callback_url?: string;
}

export const EXECUTE_OPERATION = 'POST /v1/execute';

/**
 * What every payment request starts with: its tenant, its Idempotency-Key (already required), its
 * callback_url checked, and the fingerprint of its body for the idempotency rules (spec §8).
 */
export function paymentRequest(
  request: FastifyRequest<{ Body: { callback_url?: string } }>,
  deps: Pick<PaymentRouteDeps, 'allowPrivateCallbackTargets'>,
  operation: string,
) {
  return {
    tenantId: request.auth?.tenantId ?? '',
    key: idempotencyKeyOf(request),
    callbackUrl: checkCallbackUrl(request.body.callback_url, {
      allowPrivateTargets: deps.allowPrivateCallbackTargets,
    }),
    fingerprint: requestFingerprint(operation, request.body),
  };
}

/**
 * POST /v1/execute (spec §4.2): executes a resolved instruction exactly once per Idempotency-Key
 * (spec §8) and answers the transaction as it stands after payout's bounded wait (design §3).
 */
export function registerExecuteRoute(app: FastifyInstance, deps: PaymentRouteDeps): void {
  app.post<{ Body: ExecuteBody }>(
    '/v1/execute',
    {
      onRequest: deps.authenticate,
      preValidation: requireIdempotencyKey,
      schema: { body: EXECUTE_REQUEST_SCHEMA },
    },
    async (request, reply) => {
      const body = request.body;
      const { tenantId, key, callbackUrl, fingerprint } = paymentRequest(request, deps, EXECUTE_OPERATION);
      const response = await runIdempotent({
        cache: deps.idempotency,
        scope: { tenantId, key },
        fingerprint,
        publicDocsUrl: deps.publicDocsUrl,
        operation: async () => {
          const { transaction, replayed } = await executeInstruction(deps.execute, {
            tenantId,
            instructionId: body.instruction_id,
            payer: { name: body.payer_name, account: body.payer_account, taxId: body.payer_tax_id },
            callbackUrl,
            idempotencyKey: key,
            requestFingerprint: fingerprint,
          });
          return { body: { transaction: toPublicTransaction(transaction) }, replayed };
        },
      });
      return sendIdempotentResponse(reply, response);
    },
  );
}
