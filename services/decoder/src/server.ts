import { createGrpcServer, type GrpcServer } from '@qr-payout/platform/grpc';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { toDecodedQrMessage } from './decode/message';
import type { DecoderDeps } from './deps';

/** The decoder's gRPC server (DecoderService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: DecoderDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'decoder',
    logger: deps.logger,
    register(router) {
      router.service(DecoderService, {
        decode: async ({ qrString }) => ({
          decoded: toDecodedQrMessage(await deps.decoder.decode(qrString)),
        }),
        listSchemes: () => ({ schemes: deps.schemes.listSchemes() }),
      });
    },
  });
}
