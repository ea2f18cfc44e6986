import type { Client } from '@connectrpc/connect';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import { isInstructionId } from '../ids';
import { toPublicInstruction } from '../presenters/instruction';

export interface InstructionsRouteDeps {
  payout: Pick<Client<typeof PayoutService>, 'getInstruction'>;
  authenticate: onRequestAsyncHookHandler;
}

/**
 * GET /v1/instructions/{id}: the tenant's instruction as resolve showed it (the wallet fields and
 * quote when FX applied); 404 for an unknown, malformed or another tenant's id alike.
 */
export function registerInstructionsRoute(app: FastifyInstance, deps: InstructionsRouteDeps): void {
  app.get<{ Params: { id: string } }>(
    '/v1/instructions/:id',
    { onRequest: deps.authenticate },
    async (request) => {
      const { id } = request.params;
      if (!isInstructionId(id)) throw apiError('NotFoundError', 'instruction not found');
      const { instruction } = await deps.payout.getInstruction({
        tenantId: request.auth?.tenantId ?? '',
        instructionId: id,
      });
      if (!instruction) throw new Error('payout returned no instruction');
      // Whether resolve was asked for wallet_currency is not stored; a quote says FX applied.
      return {
        instruction: toPublicInstruction(instruction, {
          walletCurrencyRequested: instruction.quote !== undefined,
        }),
        request_id: request.id,
      };
    },
  );
}
