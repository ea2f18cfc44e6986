import http from 'node:http';
import {
  Code,
  ConnectError,
  createConnectRouter,
  createContextValues,
  type Interceptor,
} from '@connectrpc/connect';
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from '@connectrpc/connect-node';
import type { Logger } from '@qr-payout/platform/log';
import { AdminService } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import { answerDashboard } from '../dashboard/admin-routes';
import { type DashboardFiles, loadDashboardFiles } from '../dashboard/files';
import { adminClientErrorHandler } from '../http/client-error';
import type { TenantService } from '../tenants/service';
import type { PayoutAdminClient, WebhookAdminClient } from './clients';
import { createAdminHandlers } from './handlers';
import { refuseCheckedJsonBody, withCheckedJsonBody } from './json-body';
import { kCallerAddress, type OperatorAuthThrottle, operatorTokenInterceptor } from './operator-auth';
import { refuseForbiddenText } from './request-text';

export interface AdminServerDeps {
  tenants: TenantService;
  webhook: WebhookAdminClient;
  payout: PayoutAdminClient;
  /** PAYOUT_ADMIN_TOKEN: the operator's bearer token. Required: the admin API never runs open. */
  adminToken: string;
  /** Failed token attempts per caller address: the public API's limiter and AUTH_FAILURE_LIMIT. */
  throttle: OperatorAuthThrottle;
  logger: Logger;
}

/**
 * One log line per admin call; errors leave with their code, message and details only, and errors
 * that are not ConnectErrors become a bare Internal so no SQL or stack text reaches the operator.
 */
function callLogInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const rpc = `${req.service.typeName}/${req.method.name}`;
    try {
      const res = await next(req);
      logger.info({ rpc, code: 'ok', duration_ms: Math.round(performance.now() - started) }, 'admin call');
      return res;
    } catch (err) {
      const duration_ms = Math.round(performance.now() - started);
      if (err instanceof ConnectError) {
        logger.info({ rpc, code: Code[err.code], duration_ms }, 'admin call failed');
        // A webhook service error carries that gRPC response's headers (content-type, grpc-*) as
        // metadata; sent on as they are, they would corrupt this Connect response.
        // Retry-After (the operator token throttle's, the webhook service's for a replay too soon) is
        // the one header kept.
        const retryAfter = err.metadata.get('retry-after');
        const clean = new ConnectError(
          err.rawMessage,
          err.code,
          retryAfter === null ? undefined : new Headers({ 'retry-after': retryAfter }),
          undefined,
          err.cause,
        );
        clean.details = err.details;
        throw clean;
      }
      logger.error({ rpc, err, duration_ms }, 'admin call failed unexpectedly');
      throw new ConnectError('internal error', Code.Internal);
    }
  };
}

// Admin messages are small; anything larger is refused before it is parsed.
const READ_MAX_BYTES = 1024 * 1024;

function answerOutsideRpc(
  dashboard: DashboardFiles,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): void {
  if (answerDashboard(dashboard, req, res)) return;
  if (req.method === 'GET' && req.url?.split('?')[0] === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"code":"not_found","message":"no such admin route"}');
}

/**
 * The admin API (docs/architecture.md "Operators"): AdminService over the Connect protocol (JSON or
 * binary) and gRPC on HTTP/1.1, guarded by the operator token, plus `GET /healthz` and the
 * operator dashboard's static files (docs/dashboard.md "Operator side"). Returned not
 * listening: the gateway binds it to ADMIN_PORT, never to the public PORT.
 *
 * connectNodeAdapter's own loop, with one step more: a JSON body is read by
 * @qr-payout/platform/json first (json-body.ts), so it is refused by the rules and with the
 * messages of every other body we take, whatever connect's parser would have made of it.
 */
export function buildAdminServer(deps: AdminServerDeps): http.Server {
  const router = createConnectRouter({
    // The logging interceptor is outermost so it also records refused tokens; a refused body is
    // answered only to a caller with the token.
    interceptors: [
      callLogInterceptor(deps.logger),
      operatorTokenInterceptor(deps.adminToken, deps.throttle),
      refuseCheckedJsonBody(),
      refuseForbiddenText(),
    ],
    connect: true,
    grpc: true,
    grpcWeb: false,
    readMaxBytes: READ_MAX_BYTES,
    // None: a compressed body would reach connect's parser unread by ours.
    acceptCompression: [],
    // A field the API does not have is a mistake to report, not to drop (`"rateLimit": 5` for
    // `rateLimitPerMinute` would otherwise create a tenant with the default limit).
    jsonOptions: { ignoreUnknownFields: false },
  });
  router.service(AdminService, createAdminHandlers(deps));
  const byPath = new Map(router.handlers.map((handler) => [handler.requestPath, handler]));
  const dashboard = loadDashboardFiles('operator');
  const server = http.createServer((req, res) => {
    const handler = byPath.get(req.url?.split('?')[0] ?? '');
    if (!handler) return answerOutsideRpc(dashboard, req, res);
    const contextValues = createContextValues().set(kCallerAddress, req.socket.remoteAddress ?? 'unknown');
    Promise.resolve()
      .then(() => universalRequestFromNodeRequest(req, res, undefined, contextValues))
      .then((request) => withCheckedJsonBody(request, READ_MAX_BYTES))
      .then(handler)
      .then((answer) => universalResponseToNodeResponse(answer, res))
      .catch((err: unknown) => {
        // The caller went away mid-body or mid-answer: nothing left to answer.
        if (ConnectError.from(err).code !== Code.Aborted)
          deps.logger.error({ err, rpc: handler.method.name }, 'admin request failed outside the RPC');
        res.destroy();
      });
  });
  // What Node's HTTP parser refuses is answered in Connect's error shape too, not with an empty 400.
  server.on('clientError', adminClientErrorHandler());
  return server;
}
