import { createGrpcServer, type GrpcServer } from '@qr-payout/platform/grpc';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { FxDeps } from './deps';

/** The fx gRPC server (FxService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: FxDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'fx',
    logger: deps.logger,
    register(router) {
      router.service(FxService, {
        listCurrencies: () => ({ currencies: deps.rates.listCurrencies() }),
        createQuote: async (req, ctx) => ({
          quote: await deps.quotes.createQuote(
            { tenantId: req.tenantId, sourceCurrency: req.sourceCurrency, target: req.target },
            ctx.signal,
          ),
        }),
        getQuote: async (req) => ({ quote: await deps.quotes.getQuote(req.tenantId, req.quoteId) }),
        confirmQuote: async (req) => ({
          quote: await deps.quotes.confirmQuote(req.tenantId, req.quoteId, req.consumerId),
        }),
      });
    },
  });
}
