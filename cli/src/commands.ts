import type { Client } from '@connectrpc/connect';
import { transactionStatusName } from '@qr-payout/platform/public-transaction';
import { retryStrategies } from '@qr-payout/platform/vocabulary';
import type { AdminService } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import type { Command } from './args';
import {
  apiKeyJson,
  attemptJson,
  deliveryJson,
  deliveryStatusOf,
  endpointJson,
  iso,
  tenantJson,
} from './output';

export type AdminClient = Client<typeof AdminService>;

/**
 * Runs one command against the admin API and returns what to print: the call's response message,
 * field names as in the admin API (output.ts; cli/README.md "Output").
 */
export async function executeCommand(admin: AdminClient, command: Command): Promise<unknown> {
  switch (command.kind) {
    case 'tenant create': {
      const res = await admin.createTenant({
        name: command.name,
        rateLimitPerMinute: command.rateLimitPerMinute,
      });
      return { tenant: tenantJson(res.tenant), api_key: res.apiKey, signing_secret: res.signingSecret };
    }
    case 'tenant list': {
      const res = await admin.listTenants({});
      return { tenants: res.tenants.map(tenantJson) };
    }
    case 'tenant update': {
      const res = await admin.updateTenant({
        tenantId: command.tenantId,
        rateLimitPerMinute: command.rateLimitPerMinute,
      });
      return { tenant: tenantJson(res.tenant) };
    }
    case 'key create': {
      const res = await admin.createApiKey({ tenantId: command.tenantId });
      return { key: apiKeyJson(res.key), api_key: res.apiKey };
    }
    case 'key revoke': {
      const res = await admin.revokeApiKey({ keyPrefix: command.keyPrefix });
      return { key: apiKeyJson(res.key) };
    }
    case 'key list': {
      const res = await admin.listApiKeys({ tenantId: command.tenantId });
      return { keys: res.keys.map(apiKeyJson) };
    }
    case 'endpoint create': {
      const res = await admin.createWebhookEndpoint({
        endpoint: {
          tenantId: command.tenantId,
          url: command.url,
          eventTypes: command.eventTypes,
          headers: command.headers,
          retryStrategy: retryStrategies.toProto(command.retry),
        },
      });
      return { endpoint: endpointJson(res.endpoint) };
    }
    case 'endpoint enable':
    case 'endpoint disable': {
      const res = await admin.setWebhookEndpointEnabled({
        endpointId: command.endpointId,
        enabled: command.kind === 'endpoint enable',
      });
      return { endpoint: endpointJson(res.endpoint) };
    }
    case 'endpoint list': {
      const res = await admin.listWebhookEndpoints({ tenantId: command.tenantId });
      return { endpoints: res.endpoints.map(endpointJson) };
    }
    case 'endpoint ping': {
      const res = await admin.pingWebhookEndpoint({ endpointId: command.endpointId });
      return { delivery: deliveryJson(res.delivery) };
    }
    case 'secret rotate': {
      const res = await admin.rotateSigningSecret({
        tenantId: command.tenantId,
        // Unset: the webhook service's default grace (24 h).
        ...(command.gracePeriodSeconds !== undefined
          ? { gracePeriodSeconds: command.gracePeriodSeconds }
          : {}),
      });
      return { signing_secret: res.signingSecret, previous_expires_at: iso(res.previousExpiresAt) };
    }
    case 'delivery list': {
      const res = await admin.listWebhookDeliveries({
        tenantId: command.tenantId,
        transactionId: command.transactionId,
        status: deliveryStatusOf(command.status),
        page: { limit: command.limit, cursor: command.cursor },
      });
      return { deliveries: res.deliveries.map(deliveryJson), next_cursor: res.pageInfo?.nextCursor || null };
    }
    case 'delivery show': {
      const res = await admin.getWebhookDelivery({ deliveryId: command.deliveryId });
      return { delivery: { ...deliveryJson(res.delivery), attempt_log: res.attempts.map(attemptJson) } };
    }
    case 'delivery replay': {
      const res = await admin.replayWebhookDelivery({ deliveryId: command.deliveryId });
      return { delivery: deliveryJson(res.delivery) };
    }
    case 'transactions stuck': {
      const res = await admin.listStuckTransactions({ tenantId: command.tenantId, limit: command.limit });
      return {
        transactions: res.transactions.map((t) => ({
          id: t.id,
          tenant_id: t.tenantId,
          status: transactionStatusName(t.status),
          rail: t.rail,
          created_at: iso(t.createdAt),
          age_ms: Number(t.ageMs),
          horizon_ms: Number(t.horizonMs),
          partner_payout_id: t.partnerPayoutId || null,
          last_polled_at: iso(t.lastPolledAt),
          stuck_since: iso(t.stuckSince),
        })),
      };
    }
  }
}
