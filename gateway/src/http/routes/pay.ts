import type { Client } from '@connectrpc/connect';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { Instruction, PayoutService, Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance } from 'fastify';
import {
  EXAMPLE_INSTRUCTION,
  EXAMPLE_PAY_REQUEST,
  EXAMPLE_REQUEST_ID,
  EXAMPLE_TRANSACTION,
} from '../../openapi/examples';
import {
  describeTags,
  errorResponse,
  example,
  IDEMPOTENT_REPLAYED_HEADER,
  okResponse,
  RATE_LIMIT_HEADERS,
} from '../../openapi/responses';
import { type BodyOf, defineRoute, routeOptions } from '../../openapi/route';
import type { PayerInput } from '../../payments/execute-instruction';
import { decodeRequest, type ResolveInstructionDeps } from '../../payments/resolve-instruction';
import { toPublicInstruction } from '../presenters/instruction';
import { PAY_REQUEST_SCHEMA, PAY_RESPONSE_SCHEMA } from '../schemas';
import {
  IDEMPOTENCY_DESCRIPTION,
  IDEMPOTENCY_KEY_HEADERS,
  type PaymentRouteDeps,
  payerOf,
  paymentRequest,
  paymentRouteHooks,
  SANDBOX_AMOUNTS_DESCRIPTION,
} from './execute';
import { IDEMPOTENT_BODY_ERRORS, QR_ROUTE_ERRORS } from './shared-responses';

export interface PayRouteDeps extends PaymentRouteDeps {
  resolve: Pick<ResolveInstructionDeps, 'decoder'>;
  payout: Pick<Client<typeof PayoutService>, 'pay'>;
}

export const PAY_OPERATION = 'POST /v1/pay';

export const PAY_ROUTE = defineRoute({
  method: 'POST',
  url: '/v1/pay',
  schema: {
    operationId: 'pay',
    tags: ['Payments'],
    summary: 'Resolve a QR code and execute the payment in one call',
    description:
      'POST /v1/resolve and POST /v1/execute in one call: the body is the union of both, and the answer ' +
      'carries the transaction and the instruction the QR resolved to (with `wallet_amount` and `quote` when ' +
      '`wallet_currency` was sent). The Idempotency-Key covers both steps: a retry never resolves a second instruction ' +
      'nor pays twice. ' +
      SANDBOX_AMOUNTS_DESCRIPTION +
      IDEMPOTENCY_DESCRIPTION,
    headers: IDEMPOTENCY_KEY_HEADERS,
    body: PAY_REQUEST_SCHEMA,
    bodyExamples: example(
      'wallet_currency_usd',
      '100.00 BRL from a USD wallet, completes in the sandbox',
      EXAMPLE_PAY_REQUEST,
    ),
    response: {
      '200': okResponse(
        'The transaction as it stands and its instruction.',
        PAY_RESPONSE_SCHEMA,
        true,
        example('completed', 'Completed', {
          transaction: EXAMPLE_TRANSACTION,
          instruction: EXAMPLE_INSTRUCTION,
          request_id: EXAMPLE_REQUEST_ID,
        }),
        IDEMPOTENT_REPLAYED_HEADER,
      ),
      ...IDEMPOTENT_BODY_ERRORS,
      '409': errorResponse(
        ['IdempotencyInProgress', 'ChargeAlreadyPaid'],
        `${describeTags(['IdempotencyInProgress', 'ChargeAlreadyPaid'])}. ChargeAlreadyPaid while another payment of the same dynamic charge is processing (its body adds \`transaction_id\` when that payment is yours); once it completed, the charge is concluded and paying its QR is 422 QrDecodeError.`,
        RATE_LIMIT_HEADERS,
      ),
      ...QR_ROUTE_ERRORS,
    },
  },
});

export interface PayQrInput {
  tenantId: string;
  qrString: string;
  /** Major units, as sent; absent for a QR that carries its amount. */
  amount?: number | undefined;
  walletCurrency?: string | undefined;
  payer: PayerInput;
  callbackUrl?: string | undefined;
  key: string;
  fingerprint: string;
}

/**
 * The pay step of POST /v1/pay and of the sandbox triggers (docs/api/sandbox.md "Triggers"):
 * decode the QR, then payout's Pay under the request's key, waiting payout's execute wait.
 */
export async function payQr(
  deps: Pick<PayRouteDeps, 'resolve' | 'payout' | 'execute'>,
  input: PayQrInput,
): Promise<{ instruction: Instruction; transaction: Transaction; replayed: boolean }> {
  const qr = await decodeRequest(deps.resolve, {
    tenantId: input.tenantId,
    qrString: input.qrString,
    walletCurrency: input.walletCurrency,
    amount: input.amount,
  });
  const waitMs = (await deps.execute.settings.get()).executeWaitMs;
  // No abort signal: a client that hangs up must not cancel a payout half way; the answer
  // still fills the idempotency cache for its retry.
  const { instruction, transaction, replayed } = await deps.payout.pay(
    {
      tenantId: input.tenantId,
      decoded: qr.decoded,
      ...(qr.amount ? { amount: qr.amount } : {}),
      walletCurrency: qr.walletCurrency,
      payer: input.payer,
      callbackUrl: input.callbackUrl ?? '',
      idempotencyKey: input.key,
      requestFingerprint: input.fingerprint,
      waitMs,
    },
    { timeoutMs: waitMs + deps.execute.callTimeoutMs },
  );
  if (!instruction || !transaction) throw new Error('payout returned no instruction or transaction');
  return { instruction, transaction, replayed };
}

/**
 * POST /v1/pay (docs/api/idempotency.md "Execute and pay"): resolve and execute in one call. The
 * gateway decodes the QR; payout's Pay resolves and executes it under the one Idempotency-Key in
 * its own database, so a retry whose Redis record is gone replays the same instruction and
 * transaction, and concurrent pays with one key make one of each
 * (services/payout/README.md "Resolve and Pay").
 */
export function registerPayRoute(app: FastifyInstance, deps: PayRouteDeps): void {
  app.route<{ Body: BodyOf<typeof PAY_ROUTE> }>({
    ...routeOptions(PAY_ROUTE),
    ...paymentRouteHooks(deps),
    handler: async (request, reply) => {
      const body = request.body;
      const payment = paymentRequest(request, deps, PAY_OPERATION);
      const { tenantId, key, fingerprint } = payment;
      return payment.answer(reply, async () => {
        const { instruction, transaction, replayed } = await payQr(deps, {
          tenantId,
          qrString: body.qr_string,
          amount: body.amount,
          walletCurrency: body.wallet_currency,
          payer: payerOf(body),
          callbackUrl: body.callback_url,
          key,
          fingerprint,
        });
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
  });
}
