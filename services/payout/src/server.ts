import { createGrpcServer, type GrpcServer } from '@qr-payout/platform/grpc';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { PayoutDeps } from './deps';
import { railLimitsMessages } from './limits/rail-limits';
import { payerIdentityRulesMessage } from './payers/identity-rules';

/** The payout gRPC server (PayoutService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: PayoutDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'payout',
    logger: deps.logger,
    register(router) {
      router.service(PayoutService, {
        createInstruction: async (req) => ({
          instruction: await deps.instructions.createInstruction(req),
        }),
        getInstruction: async (req) => ({
          instruction: await deps.instructions.getInstruction(req.tenantId, req.instructionId),
        }),
        getTransaction: async (req) => ({
          transaction: await deps.transactions.getTransaction(req.tenantId, req.transactionId),
        }),
        listTransactions: async (req) => {
          const page = await deps.transactions.listTransactions(req);
          return { transactions: page.transactions, pageInfo: { nextCursor: page.nextCursor } };
        },
        // The call's signal only ends the wait: a payout already on its way is never abandoned
        // because the caller went away.
        executeInstruction: (req, ctx) => deps.execution.executeInstruction(req, ctx.signal),
        pay: (req, ctx) => deps.execution.pay(req, ctx.signal),
        applyPartnerCallback: async (req) => ({
          transaction: await deps.execution.applyPartnerCallback(req),
        }),
        listRailLimits: () => ({ limits: railLimitsMessages(deps.config.railLimits) }),
        listPayerIdentityRules: () => payerIdentityRulesMessage(),
        listStuckTransactions: async (req) => ({
          transactions: await deps.stuck.listStuckTransactions(req),
        }),
      });
    },
  });
}
