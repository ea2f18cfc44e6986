import { createGrpcServer, type GrpcServer } from '@qr-payout/platform/grpc';
import { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { WebhookDeps } from './deps';
import { createWebhookHandlers } from './handlers';

/** The webhook gRPC server (WebhookService + grpc.health.v1.Health); the caller listens. */
export function buildServer(deps: WebhookDeps): GrpcServer {
  return createGrpcServer({
    serviceName: 'webhook',
    logger: deps.logger,
    register(router) {
      router.service(WebhookService, createWebhookHandlers(deps));
    },
  });
}
