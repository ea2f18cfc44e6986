import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { type ResolveInstructionDeps, resolveInstruction } from '../../payments/resolve-instruction';
import { dropNullFields } from '../null-as-absent';
import { toPublicInstruction } from '../presenters/instruction';
import { RESOLVE_REQUEST_SCHEMA } from '../schemas';

export interface ResolveRouteDeps extends ResolveInstructionDeps {
  authenticate: onRequestAsyncHookHandler;
}

interface ResolveBody {
  qr_string: string;
  wallet_currency?: string;
  amount?: number;
}

/**
 * POST /v1/resolve (docs/api/resources.md "Instructions (resolve)"): decode the QR text, quote FX
 * when the wallet currency differs from the payment currency
 * (docs/architecture.md "What the service does"), and store the instruction in payout
 * (payments/resolve-instruction.ts, shared with POST /v1/pay).
 */
export function registerResolveRoute(app: FastifyInstance, deps: ResolveRouteDeps): void {
  app.post<{ Body: ResolveBody }>(
    '/v1/resolve',
    { onRequest: deps.authenticate, schema: { body: RESOLVE_REQUEST_SCHEMA }, preHandler: dropNullFields },
    async (request) => {
      const instruction = await resolveInstruction(deps, {
        tenantId: request.auth?.tenantId ?? '',
        qrString: request.body.qr_string,
        walletCurrency: request.body.wallet_currency,
        amount: request.body.amount,
      });
      return {
        instruction: toPublicInstruction(instruction, {
          walletCurrencyRequested: request.body.wallet_currency !== undefined,
        }),
        request_id: request.id,
      };
    },
  );
}
