import { createGrpcServer, type GrpcServer } from '@qr-payout/platform';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { DecoderDeps } from './deps';

/** The decoder's gRPC server (DecoderService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: DecoderDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'decoder',
    logger: deps.logger,
    register(router) {
      // Decode comes with the decoder issue; until then Connect answers UNIMPLEMENTED for it.
      router.service(DecoderService, {
        listSchemes: () => ({ schemes: deps.schemes.listSchemes() }),
      });
    },
  });
}
