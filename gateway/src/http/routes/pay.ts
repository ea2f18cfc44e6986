import type { Client } from '@connectrpc/connect';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance } from 'fastify';
import { requireIdempotencyKey } from '../../idempotency/http';
import { decodeRequest, type ResolveInstructionDeps } from '../../payments/resolve-instruction';
import { dropNullFields } from '../null-as-absent';
import { toPublicInstruction } from '../presenters/instruction';
import { PAY_REQUEST_SCHEMA } from '../schemas';
import { type PayerBody, type PaymentRouteDeps, payerOf, paymentRequest } from './execute';

export interface PayRouteDeps extends PaymentRouteDeps {
  resolve: Pick<ResolveInstructionDeps, 'decoder' | 'currencies'>;
  payout: Pick<Client<typeof PayoutService>, 'pay'>;
}

interface PayBody extends PayerBody {
  qr_string: string;
  wallet_currency?: string;
  amount?: number;
}

export const PAY_OPERATION = 'POST /v1/pay';

/**
 * POST /v1/pay (docs/api/idempotency.md "Execute and pay"): resolve and execute in one call. The
 * gateway decodes the QR; payout's Pay resolves and executes it under the one Idempotency-Key in
 * its own database, so a retry whose Redis record is gone replays the same instruction and
 * transaction, and concurrent pays with one key make one of each
 * (services/payout/README.md "Resolve and Pay").
 */
export function registerPayRoute(app: FastifyInstance, deps: PayRouteDeps): void {
  app.post<{ Body: PayBody }>(
    '/v1/pay',
    {
      onRequest: deps.authenticate,
      preValidation: requireIdempotencyKey,
      schema: { body: PAY_REQUEST_SCHEMA },
      preHandler: dropNullFields,
    },
    async (request, reply) => {
      const body = request.body;
      const payment = paymentRequest(request, deps, PAY_OPERATION);
      const { tenantId, key, fingerprint } = payment;
      return payment.answer(reply, async () => {
        const qr = await decodeRequest(deps.resolve, {
          tenantId,
          qrString: body.qr_string,
          walletCurrency: body.wallet_currency,
          amount: body.amount,
        });
        const waitMs = (await deps.execute.settings.get()).executeWaitMs;
        // No abort signal: a client that hangs up must not cancel a payout half way; the answer
        // still fills the idempotency cache for its retry.
        const { instruction, transaction, replayed } = await deps.payout.pay(
          {
            tenantId,
            decoded: qr.decoded,
            ...(qr.amount ? { amount: qr.amount } : {}),
            walletCurrency: qr.walletCurrency,
            payer: payerOf(body),
            callbackUrl: body.callback_url ?? '',
            idempotencyKey: key,
            requestFingerprint: fingerprint,
            waitMs,
          },
          { timeoutMs: waitMs + deps.execute.callTimeoutMs },
        );
        if (!instruction || !transaction) throw new Error('payout returned no instruction or transaction');
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
