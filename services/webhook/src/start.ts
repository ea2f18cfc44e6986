// What runs in a webhook process: WebhookService (endpoints, signing secrets, deliveries) over gRPC
// with grpc.health.v1.Health, and two roles behind their flags (README "Configuration"; one binary,
// as Svix splits API and worker): the dispatcher turns transaction events into deliveries, the
// delivery worker sends them; and the prune job of finished deliveries (RETENTION_ENABLED).

import { runPruneJobs, withDatabaseHealth } from '@qr-payout/platform/db';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import {
  createGrpcServer,
  type RunningGrpcService,
  type ServiceWorker,
  serveGrpc,
} from '@qr-payout/platform/grpc';
import { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { WebhookConfig } from './config';
import { createSealedBox } from './crypto/sealed-box';
import { runDispatcher } from './deliveries/dispatcher';
import { createTenantEndpointCache } from './deliveries/endpoint-cache';
import { closeSenderAgents } from './deliveries/sender';
import { createDeliveryService } from './deliveries/service';
import { createDeliveryStore } from './deliveries/store';
import { startDeliveryWorker } from './deliveries/worker';
import { createDeps, type WebhookOverrides } from './deps';
import { createEgressGuard } from './egress/guard';
import { createEndpointService, DISABLED_AFTER_FAILING, ENDPOINT_DISABLED_ERROR } from './endpoints/service';
import { createEndpointStore } from './endpoints/store';
import { createWebhookHandlers } from './handlers';
import { registerWebhookGauges } from './metrics';
import { PRUNE_FINISHED_DELIVERIES } from './retention/store';
import { createSigningSecretService } from './secrets/service';
import { createSigningSecretStore } from './secrets/store';

const HOUR_MS = 3_600_000;
// The consumer lag costs two Kafka admin requests: read at most this often, whatever the scrapes.
const KAFKA_GAUGES_REFRESH_MS = 5_000;
// What an attempt keeps of the receiver's answer, for support (never request headers).
const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * Migrates schema webhook when MIGRATE_ON_START=true, serves on GRPC_PORT (0 picks a free port),
 * then starts the prune job of finished deliveries, the delivery worker and the dispatcher (each
 * unless its flag says false).
 * `overrides.bus` replaces the Kafka bus (the sandbox).
 */
export async function startWebhook(
  config: WebhookConfig,
  overrides: WebhookOverrides = {},
): Promise<RunningGrpcService> {
  const deps = createDeps(config, overrides);
  const { logger, pool } = deps;
  // Each store built once here and passed to every component that uses it.
  const deliveries = createDeliveryStore(pool);
  const endpoints = createEndpointStore(pool);
  const signingSecrets = createSigningSecretStore(pool);
  const sealedBox = createSealedBox([config.secretsKey, ...config.previousSecretsKeys]);
  // The dispatcher's view of the tenants' endpoints (WEBHOOK_ENDPOINT_CACHE_MS), invalidated by
  // the endpoint service when this process changes them.
  const endpointCache = createTenantEndpointCache({
    ttlMs: config.endpointCacheMs,
    load: (tenantIds) => deliveries.findTenantEndpoints(tenantIds),
  });
  // Tells the delivery worker (when it runs in this process) that deliveries are due now.
  let wakeWorker: () => void = () => undefined;

  const server = createGrpcServer({
    serviceName: 'webhook',
    logger,
    maxConnectionAgeMs: config.grpcMaxConnectionAgeMs,
    maxConnectionAgeGraceMs: config.grpcMaxConnectionAgeGraceMs,
    tls: config.grpcTls,
    register(router) {
      router.service(
        WebhookService,
        createWebhookHandlers({
          endpoints: createEndpointService({
            endpoints,
            deliveries,
            sealedBox,
            allowPrivateTargets: config.allowPrivateTargets,
            onEndpointsChanged: (tenantId) => endpointCache.invalidate(tenantId),
          }),
          signingSecrets: createSigningSecretService({ store: signingSecrets, sealedBox }),
          deliveries: createDeliveryService({
            deliveries,
            endpoints,
            onDue: () => wakeWorker(),
            replayMinIntervalMs: config.replayMinIntervalMs,
          }),
        }),
      );
    },
  });

  // Stopped last-started first: the dispatcher stops consuming before the worker finishes its
  // attempts in flight.
  const startRoles = (): ServiceWorker[] => {
    const roles: ServiceWorker[] = [];
    // docs/runbooks.md "Oldest due delivery", "Webhook consumer lag", "No webhook dispatcher",
    // "Idle webhook dispatchers". Stopped last. The Kafka gauges come from dispatcher processes
    // only: the other roles have no Kafka egress, and none reporting them is what "no dispatcher"
    // alerts on.
    const group = config.dispatcherEnabled ? deps.kafkaGroup : undefined;
    roles.push(
      registerWebhookGauges({
        oldestDueAt: () => deliveries.oldestDueAt(),
        ...(group
          ? {
              dispatcher: {
                topic: TRANSACTION_EVENTS_TOPIC,
                lag: () => group.consumerLag(config.dispatcherGroup, TRANSACTION_EVENTS_TOPIC),
                members: () => group.groupMembers(config.dispatcherGroup),
                partitions: async () => (await group.partitionCount(TRANSACTION_EVENTS_TOPIC)) ?? 0,
              },
            }
          : {}),
        logger,
        refreshMs: KAFKA_GAUGES_REFRESH_MS,
      }),
    );
    // Finished deliveries and their attempts (docs/operators.md "Retention").
    if (config.retentionEnabled) {
      roles.push(
        ...runPruneJobs(pool, logger, config, [
          { name: 'deliveries', statement: PRUNE_FINISHED_DELIVERIES, params: [config.deliveryRetentionMs] },
        ]),
      );
    }
    if (config.workerEnabled) {
      const worker = startDeliveryWorker({
        deliveries,
        sealedBox,
        guard: createEgressGuard({ allowPrivateTargets: config.allowPrivateTargets }),
        logger,
        settings: {
          concurrency: config.workerConcurrency,
          pollMs: config.pollMs,
          leaseMs: config.leaseMs,
          connectTimeoutMs: config.connectTimeoutMs,
          timeoutMs: config.timeoutMs,
          maxExcerptBytes: RESPONSE_EXCERPT_BYTES,
          retryScale: config.retryScale,
          autoDisable: {
            afterMs: config.autoDisableHours * HOUR_MS * config.retryScale,
            reason: DISABLED_AFTER_FAILING,
            deliveryError: ENDPOINT_DISABLED_ERROR,
          },
        },
      });
      wakeWorker = worker.wake;
      roles.push({
        async stop() {
          await worker.stop();
          closeSenderAgents();
        },
      });
    }
    if (config.dispatcherEnabled && deps.bus) {
      roles.push(
        runDispatcher({
          deliveries,
          bus: deps.bus,
          logger,
          endpoints: endpointCache,
          groupId: config.dispatcherGroup,
          sessionTimeoutMs: config.kafkaSessionTimeoutMs,
          onDeliveries: () => wakeWorker(),
        }),
      );
    }
    return roles;
  };

  return serveGrpc({
    // NOT_SERVING while the database does not answer (docs/architecture.md "Deadlines").
    server: withDatabaseHealth(server, { config, services: [WebhookService.typeName], logger }),
    deps,
    config,
    startWorkers: startRoles,
  });
}
