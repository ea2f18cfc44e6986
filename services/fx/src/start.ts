// What runs in an fx process: FxService (currencies, quotes) over gRPC, with grpc.health.v1.Health.
// Rates come from FX_RATES (a table in the config); quotes live in schema fx. One background worker:
// the prune job of expired quotes (docs/operators.md "Retention").
import { runPruneJobs, withDatabaseHealth } from '@qr-payout/platform/db';
import { createGrpcServer, type RunningGrpcService, serveGrpc } from '@qr-payout/platform/grpc';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { FxConfig } from './config';
import { createDeps } from './deps';
import { createQuoteService } from './quotes/service';
import { createQuoteStore } from './quotes/store';
import { minorUnitsByCode } from './rates/rate-table';
import { createRateService } from './rates/service';
import { createTableRateProvider } from './rates/table-provider';
import { PRUNE_EXPIRED_QUOTES } from './retention/store';

/**
 * Migrates schema fx when MIGRATE_ON_START=true, serves on GRPC_PORT (0 picks a free port), then
 * prunes expired quotes unless RETENTION_ENABLED=false.
 */
export async function startFx(config: FxConfig): Promise<RunningGrpcService> {
  const deps = createDeps(config);
  const rates = createRateService({ rates: config.rates });
  const quotes = createQuoteService({
    store: createQuoteStore(deps.pool),
    rates: createTableRateProvider(config.rates),
    minorUnits: minorUnitsByCode(config.rates),
    pricing: { spreadBps: config.spreadBps, feeBps: config.feeBps, ttlMs: config.quoteTtlMs },
  });

  const grpcServer = createGrpcServer({
    serviceName: 'fx',
    logger: deps.logger,
    maxConnectionAgeMs: config.grpcMaxConnectionAgeMs,
    maxConnectionAgeGraceMs: config.grpcMaxConnectionAgeGraceMs,
    tls: config.grpcTls,
    register(router) {
      router.service(FxService, {
        listCurrencies: () => ({ currencies: rates.listCurrencies() }),
        createQuote: async (req, ctx) => ({
          quote: await quotes.createQuote(
            { tenantId: req.tenantId, sourceCurrency: req.sourceCurrency, target: req.target },
            ctx.signal,
          ),
        }),
        getQuote: async (req) => ({ quote: await quotes.getQuote(req.tenantId, req.quoteId) }),
        confirmQuote: async (req) => ({
          quote: await quotes.confirmQuote(req.tenantId, req.quoteId, req.consumerId),
        }),
      });
    },
  });
  return serveGrpc({
    // NOT_SERVING while the database does not answer (docs/architecture.md "Deadlines").
    server: withDatabaseHealth(grpcServer, { config, services: [FxService.typeName], logger: deps.logger }),
    deps,
    config,
    startWorkers: () =>
      config.retentionEnabled
        ? runPruneJobs(deps.pool, deps.logger, config, [
            { name: 'quotes', statement: PRUNE_EXPIRED_QUOTES, params: [config.quoteRetentionMs] },
          ])
        : [],
  });
}
