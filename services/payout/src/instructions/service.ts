import type { CreateInstructionRequest, Instruction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { tenantRequired } from '../transactions/errors';
import { instructionNotFound } from './errors';
import { toInstructionMessage } from './instruction-message';
import { type InstructionResolver, resolvedInstructionMessage } from './resolve';
import type { InstructionStore } from './store';

export interface InstructionService {
  /**
   * Stores the resolved instruction of a tenant (docs/api/resources.md "Instructions (resolve)";
   * docs/architecture.md "Transactions") and returns it.
   */
  createInstruction(req: CreateInstructionRequest): Promise<Instruction>;
  /** The tenant's instruction; NotFoundError for an unknown id or another tenant's id. */
  getInstruction(tenantId: string, instructionId: string): Promise<Instruction>;
}

export function createInstructionService(deps: {
  store: InstructionStore;
  /** Amount, rail limits and quote of a QR (resolve.ts), shared with Pay. */
  resolver: InstructionResolver;
}): InstructionService {
  return {
    async createInstruction(req) {
      const resolved = await deps.resolver.resolve({
        tenantId: req.tenantId,
        decoded: req.decoded,
        amount: req.amount,
        quote: req.quote,
        walletCurrency: req.walletCurrency,
      });
      const { createdAt } = await deps.store.insertInstruction(resolved.row);
      return resolvedInstructionMessage(resolved, createdAt);
    },

    async getInstruction(tenantId, instructionId) {
      if (tenantId === '') throw tenantRequired();
      // Ids are ASCII and short; anything else cannot exist, and is not worth a query.
      if (instructionId === '' || instructionId.length > 64) throw instructionNotFound();
      const row = await deps.store.findInstruction(tenantId, instructionId);
      if (!row) throw instructionNotFound();
      return toInstructionMessage(row);
    },
  };
}
