import { createGrpcServer, type GrpcServer } from '@qr-payout/platform';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { FxDeps } from './deps';

/** The fx gRPC server (FxService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: FxDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'fx',
    logger: deps.logger,
    register(router) {
      // CreateQuote, GetQuote and ConfirmQuote come with the quotes issue; until then Connect
      // answers UNIMPLEMENTED for them.
      router.service(FxService, {
        listCurrencies: () => ({ currencies: deps.rates.listCurrencies() }),
      });
    },
  });
}
