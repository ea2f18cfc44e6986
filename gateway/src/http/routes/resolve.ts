import type { Client } from '@connectrpc/connect';
import type { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { Instruction, PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import { fromMinorUnits, toMinorUnits } from '../money';
import { RESOLVE_REQUEST_SCHEMA } from '../schemas';

export interface ResolveRouteDeps {
  decoder: Pick<Client<typeof DecoderService>, 'decode'>;
  payout: Pick<Client<typeof PayoutService>, 'createInstruction'>;
  authenticate: onRequestAsyncHookHandler;
}

interface ResolveBody {
  qr_string: string;
  wallet_currency?: string;
  amount?: number;
}

/**
 * POST /v1/resolve (spec §4.1): decodes the QR text and stores the instruction. The amount comes
 * from the QR, or from the request for a QR without one (design §3).
 */
export function registerResolveRoute(app: FastifyInstance, deps: ResolveRouteDeps): void {
  app.post<{ Body: ResolveBody }>(
    '/v1/resolve',
    { onRequest: deps.authenticate, schema: { body: RESOLVE_REQUEST_SCHEMA } },
    async (request, _reply) => {
      const tenantId = request.auth?.tenantId ?? '';
      const { decoded } = await deps.decoder.decode({ qrString: request.body.qr_string });
      if (!decoded) throw new Error('decoder returned no instruction');
      const qrAmount = decoded.amount?.amountMinor;
      const requested =
        request.body.amount === undefined
          ? undefined
          : toMinorUnits(request.body.amount, decoded.currency, 'amount');
      if (qrAmount === undefined && requested === undefined) throw apiError('AmountRequired');
      if (qrAmount !== undefined && requested !== undefined && qrAmount !== requested)
        throw apiError('AmountMismatch');
      const amountMinor = (qrAmount ?? requested) as bigint;
      const { instruction } = await deps.payout.createInstruction({
        tenantId,
        decoded,
        amount: { currency: decoded.currency, amountMinor },
      });
      if (!instruction) throw new Error('payout returned no instruction');
      return { instruction: toPublicInstruction(instruction), request_id: request.id };
    },
  );
}

export function toPublicInstruction(instruction: Instruction) {
  const decoded = instruction.decoded;
  const amount = instruction.amount;
  return {
    id: instruction.id,
    amount: amount ? fromMinorUnits(amount.amountMinor, amount.currency) : 0,
    currency: amount?.currency ?? decoded?.currency ?? '',
    creditor: { name: decoded?.creditor?.name ?? '', account: decoded?.creditor?.account ?? '' },
    scheme: decoded?.schemeId ?? '',
    country: decoded?.country ?? '',
    confidence: decoded?.confidence ?? 0,
  };
}
