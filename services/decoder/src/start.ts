// What runs in a decoder process: DecoderService (decode a QR, list the schemes) over gRPC, with
// grpc.health.v1.Health. No database and no background workers.
import { createGrpcServer, type RunningGrpcService, serveGrpc } from '@qr-payout/platform/grpc';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { DecoderConfig } from './config';
import { createQrDecoder } from './decode/decoder';
import { toDecodedQrMessage } from './decode/message';
import { createDeps, type DecoderDepsOverrides } from './deps';
import { SCHEME_CATALOGUE } from './schemes/catalogue';
import { createSchemeService } from './schemes/service';

/**
 * Serves the decoder on GRPC_PORT (0 picks a free port).
 * `overrides.dynamicPixFetcher` replaces the dynamic Pix fetcher (tests).
 */
export async function startDecoder(
  config: DecoderConfig,
  overrides: DecoderDepsOverrides = {},
): Promise<RunningGrpcService> {
  const deps = createDeps(config, overrides);
  const schemes = createSchemeService({ catalogue: SCHEME_CATALOGUE });
  const decoder = createQrDecoder({ dynamicPix: deps.dynamicPix });

  const server = createGrpcServer({
    serviceName: 'decoder',
    logger: deps.logger,
    maxConnectionAgeMs: config.grpcMaxConnectionAgeMs,
    maxConnectionAgeGraceMs: config.grpcMaxConnectionAgeGraceMs,
    tls: config.grpcTls,
    register(router) {
      router.service(DecoderService, {
        decode: async ({ qrString }) => ({ decoded: toDecodedQrMessage(await decoder.decode(qrString)) }),
        listSchemes: () => ({ schemes: schemes.listSchemes() }),
      });
    },
  });
  return serveGrpc({ server, deps, config });
}
