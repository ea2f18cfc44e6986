import { createGrpcServer, type GrpcServer } from '@qr-payout/platform';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { PayoutDeps } from './deps';

/** The payout gRPC server (PayoutService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: PayoutDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'payout',
    logger: deps.logger,
    register(router) {
      // ExecuteInstruction and ApplyPartnerCallback come with later issues; until then Connect
      // answers UNIMPLEMENTED for them.
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
      });
    },
  });
}
