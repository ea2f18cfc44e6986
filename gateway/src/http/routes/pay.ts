import type { Client } from '@connectrpc/connect';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { Instruction, PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../errors/api-error';
import { requireIdempotencyKey } from '../../idempotency/http';
import type { PayRecordStore } from '../../payments/pay-store';
import { type ResolveInstructionDeps, resolveInstruction } from '../../payments/resolve-instruction';
import { toPublicInstruction } from '../presenters/instruction';
import { PAY_REQUEST_SCHEMA } from '../schemas';
import { type PaymentRouteDeps, paymentRequest } from './execute';

export interface PayRouteDeps extends PaymentRouteDeps {
  resolve: ResolveInstructionDeps;
  payout: Pick<Client<typeof PayoutService>, 'getInstruction'>;
  payRecords: Pick<PayRecordStore, 'find' | 'claim'>;
}

interface PayBody {
  qr_string: string;
  wallet_currency?: string;
  amount?: number;
  payer_name: string;
  payer_account: string;
  payer_tax_id: string;
  callback_url?: string;
}

export const PAY_OPERATION = 'POST /v1/pay';

/**
 * POST /v1/pay (spec §4.3): resolve and execute in one call. The Idempotency-Key covers both
 * steps: the first pay records which instruction its key resolved to (payments/pay-store.ts), so
 * a retry whose Redis record is gone executes that instruction again (payout answers it as a
 * replay) instead of resolving a second one.
 */
export function registerPayRoute(app: FastifyInstance, deps: PayRouteDeps): void {
  app.post<{ Body: PayBody }>(
    '/v1/pay',
    {
      onRequest: deps.authenticate,
      preValidation: requireIdempotencyKey,
      schema: { body: PAY_REQUEST_SCHEMA },
    },
    async (request, reply) => {
      const body = request.body;
      const payment = paymentRequest(request, deps, PAY_OPERATION);
      const { tenantId, key, fingerprint } = payment;

      async function instructionOfKey(): Promise<Instruction> {
        const recorded = await deps.payRecords.find(tenantId, key);
        if (recorded) return recordedInstruction(recorded.requestFingerprint, recorded.instructionId);
        const made = await resolveInstruction(deps.resolve, {
          tenantId,
          qrString: body.qr_string,
          walletCurrency: body.wallet_currency,
          amount: body.amount,
        });
        // Two pays with one key can both get here only when the Redis lock was not available;
        // the first claim wins and both execute its instruction (ours stays unexecuted).
        const holder = await deps.payRecords.claim(tenantId, key, {
          requestFingerprint: fingerprint,
          instructionId: made.id,
        });
        if (holder.instructionId === made.id) return made;
        return recordedInstruction(holder.requestFingerprint, holder.instructionId);
      }

      async function recordedInstruction(
        recordedFingerprint: string,
        instructionId: string,
      ): Promise<Instruction> {
        if (recordedFingerprint !== fingerprint) throw apiError('IdempotencyConflict');
        const { instruction } = await deps.payout.getInstruction({ tenantId, instructionId });
        if (!instruction) throw new Error('payout returned no instruction');
        return instruction;
      }

      return payment.answer(reply, async () => {
        const instruction = await instructionOfKey();
        const { transaction, replayed } = await payment.execute(instruction.id);
        return {
          body: {
            transaction: toPublicTransaction(transaction),
            instruction: toPublicInstruction(instruction, {
              walletCurrencyRequested: body.wallet_currency !== undefined,
            }),
          },
          replayed,
        };
      });
    },
  );
}
