import { randomUUID } from 'node:crypto';
import { requestContext } from '@qr-payout/platform/context';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { samplesPageHtml } from '../docs/samples/page';
import { apiError } from '../errors/api-error';
import type { IdempotencyCache } from '../idempotency/cache';
import { buildOpenApiDocument, serverUrlFromDocsUrl } from '../openapi/document';
import type { ExecutionSettingsSource } from '../payments/execution-settings';
import type { RateLimiter } from '../ratelimit/limiter';
import type { SchemeCatalogue } from '../schemes/catalogue';
import { type AuthTenants, createAuthHook } from './auth';
import { clientErrorHandler } from './client-error';
import { sendApiError, toApiError } from './error-reply';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './json-body';
import { registerRequestMetrics } from './metrics';
import { createRouteMethods } from './route-methods';
import { registerDashboardRoutes } from './routes/dashboard';
import { registerDocsRoutes } from './routes/docs';
import { registerExecuteRoute } from './routes/execute';
import { type FxCurrenciesRouteDeps, registerFxCurrenciesRoute } from './routes/fx-currencies';
import { type Readiness, registerHealthRoutes } from './routes/health';
import { type InstructionsRouteDeps, registerInstructionsRoute } from './routes/instructions';
import { type PartnerCallbackRouteDeps, registerPartnerCallbackRoute } from './routes/partner-callbacks';
import { type PayRouteDeps, registerPayRoute } from './routes/pay';
import { type ResolveRouteDeps, registerResolveRoute } from './routes/resolve';
import { registerSandboxTestQrsRoutes } from './routes/sandbox-test-qrs';
import { registerSandboxTriggersRoute } from './routes/sandbox-triggers';
import { registerSchemesRoute } from './routes/schemes';
import { registerTransactionsRoute, type TransactionsRouteDeps } from './routes/transactions';
import {
  registerWebhookDeliveriesRoutes,
  type WebhookDeliveriesRouteDeps,
} from './routes/webhook-deliveries';
import { registerWebhookEndpointsRoute, type WebhookEndpointsRouteDeps } from './routes/webhook-endpoints';
import { formatValidationMessage } from './validation';

export const REQUEST_ID_HEADER = 'x-request-id';

export interface PublicAppDeps {
  tenants: AuthTenants;
  limiter: RateLimiter;
  schemes: SchemeCatalogue;
  decoder: ResolveRouteDeps['decoder'];
  currencies: FxCurrenciesRouteDeps['currencies'];
  payout: ResolveRouteDeps['payout'] &
    TransactionsRouteDeps['payout'] &
    InstructionsRouteDeps['payout'] &
    PayRouteDeps['payout'] &
    PayRouteDeps['execute']['payout'] &
    PartnerCallbackRouteDeps['payout'];
  /** Execute, pay and partner callbacks (the money path). */
  payments: PaymentsDeps;
  webhook: WebhookEndpointsRouteDeps['webhook'] & WebhookDeliveriesRouteDeps['webhook'];
  readiness: Readiness;
  logger: Logger;
  publicDocsUrl: string;
  authFailureLimit: number;
  trustProxy?: boolean | string[];
}

export interface PaymentsDeps {
  idempotency: IdempotencyCache;
  /** payout's execute wait and key lifetime (docs/api/idempotency.md "Execute and pay"). */
  settings: ExecutionSettingsSource;
  /** Deadline of the execute call on top of the wait (GRPC_TIMEOUT_MS). */
  executeCallTimeoutMs: number;
  /** PARTNER_CALLBACK_SECRET; undefined: partner callbacks answer 503. */
  partnerCallbackSecret: string | undefined;
  /** SANDBOX_MODE: the sandbox triggers run (docs/api/sandbox.md "Triggers"); absent: false. */
  sandboxMode?: boolean;
}

/**
 * The public HTTP API (docs/architecture.md "Services and what each owns"): built and ready to
 * `listen` or `inject`; no listen here.
 */
export function buildPublicApp(deps: PublicAppDeps): FastifyInstance {
  const { logger, publicDocsUrl } = deps;
  const app = Fastify({
    logger: false,
    // A fresh UUID per request (docs/api/resources.md "Request ids"); a client-sent x-request-id is
    // never trusted.
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustProxy ?? false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // In-flight requests finish during shutdown; readiness already says 503.
    return503OnClosing: false,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    schemaErrorFormatter: (errors, dataVar) => new Error(formatValidationMessage(errors, dataVar)),
    // What Node's HTTP parser refuses is answered in the error shape too; a request without Host
    // reaches the routes (and their error answers) instead of Node's bodiless 400.
    clientErrorHandler: clientErrorHandler(publicDocsUrl),
    http: { requireHostHeader: false },
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      sendApiError(reply, toApiError(error, request, logger), publicDocsUrl);
    },
  });
  app.decorateRequest('auth', null);

  // The very first hook, so the header is on every response, errors and unknown routes included.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  registerRequestMetrics(app);
  // Route handlers run in the platform request context: logs carry request_id, gRPC calls send
  // it as x-request-id (platform client interceptor), with the tenant once authenticated.
  const routeMethods = createRouteMethods();
  app.addHook('onRoute', (route) => {
    routeMethods.add(route.method, route.url);
    const handler = route.handler;
    route.handler = function withRequestContext(request, reply) {
      const tenantId = request.auth?.tenantId;
      return requestContext.run({ requestId: request.id, ...(tenantId ? { tenantId } : {}) }, () =>
        handler.call(this, request, reply),
      );
    };
  });
  if (logger.isLevelEnabled('info')) {
    // One access line per request at info; nothing per request below that level (bench: warn).
    app.addHook('onResponse', (request, reply, done) => {
      logger.info(
        {
          request_id: request.id,
          method: request.method,
          route: request.routeOptions.url ?? request.url.split('?')[0],
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 100) / 100,
          ...(request.auth ? { tenant_id: request.auth.tenantId, key_prefix: request.auth.keyPrefix } : {}),
        },
        'request',
      );
      done();
    });
  }

  registerJsonBodyParser(app);
  /** 405 with `Allow` when the path exists under other methods, else 404. */
  const answerUnknownRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = routeMethods.allowed(path);
    if (allowed.length === 0)
      return sendApiError(
        reply,
        apiError('NotFoundError', `No route ${request.method} ${path.slice(0, 200)}.`),
        publicDocsUrl,
      );
    const message = `${request.method.slice(0, 20)} is not allowed on ${path.slice(0, 200)}.`;
    return sendApiError(
      reply.header('allow', allowed.join(', ')),
      apiError('MethodNotAllowed', message),
      publicDocsUrl,
    );
  };
  app.setErrorHandler((error, request, reply) => {
    // A request no route has can still fail before the not-found handler (a QUERY without a
    // Content-Type): it is answered as the unknown route it is.
    if (request.is404) return answerUnknownRoute(request, reply);
    sendApiError(reply, toApiError(error, request, logger), publicDocsUrl);
  });
  app.setNotFoundHandler(answerUnknownRoute);

  const authenticate = createAuthHook({
    tenants: deps.tenants,
    limiter: deps.limiter,
    authFailureLimit: deps.authFailureLimit,
  });
  const openApiJson = JSON.stringify(
    buildOpenApiDocument({ serverUrl: serverUrlFromDocsUrl(publicDocsUrl) }),
  );
  registerSchemesRoute(app, { schemes: deps.schemes, authenticate });
  registerResolveRoute(app, {
    decoder: deps.decoder,
    payout: deps.payout,
    authenticate,
  });
  const paymentRoutes = {
    authenticate,
    idempotency: deps.payments.idempotency,
    execute: {
      payout: deps.payout,
      settings: deps.payments.settings,
      callTimeoutMs: deps.payments.executeCallTimeoutMs,
    },
    publicDocsUrl,
  };
  registerExecuteRoute(app, paymentRoutes);
  const payRoutes = {
    ...paymentRoutes,
    resolve: { decoder: deps.decoder },
    payout: deps.payout,
  };
  registerPayRoute(app, payRoutes);
  registerSandboxTriggersRoute(app, { ...payRoutes, sandboxMode: deps.payments.sandboxMode ?? false });
  registerPartnerCallbackRoute(app, {
    payout: deps.payout,
    secret: deps.payments.partnerCallbackSecret,
    logger,
  });
  registerFxCurrenciesRoute(app, { currencies: deps.currencies, authenticate });
  registerTransactionsRoute(app, { payout: deps.payout, authenticate });
  registerInstructionsRoute(app, { payout: deps.payout, authenticate });
  registerWebhookEndpointsRoute(app, { webhook: deps.webhook, authenticate });
  registerWebhookDeliveriesRoutes(app, { webhook: deps.webhook, authenticate });
  registerDocsRoutes(app, { openApiJson, samplesPageHtml: samplesPageHtml() });
  registerDashboardRoutes(app);
  registerSandboxTestQrsRoutes(app);
  registerHealthRoutes(app, { readiness: deps.readiness });
  return app;
}
