import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { Code, serviceError } from '@qr-payout/platform/errors';
import {
  type AdminService,
  type ApiKey,
  ApiKeySchema,
  type Tenant,
  TenantSchema,
} from '@qr-payout/proto/payout/admin/v1/admin_pb';
import type { ApiKey as ApiKeyRow, Tenant as TenantRow, TenantService } from '../tenants/service';
import type { PayoutAdminClient, WebhookAdminClient } from './clients';

function toTenantMessage(t: TenantRow): Tenant {
  return create(TenantSchema, {
    id: t.id,
    name: t.name,
    rateLimitPerMinute: t.rateLimitPerMinute ?? 0,
    createdAt: timestampFromDate(t.createdAt),
  });
}

function toApiKeyMessage(k: ApiKeyRow): ApiKey {
  return create(ApiKeySchema, {
    prefix: k.prefix,
    tenantId: k.tenantId,
    createdAt: timestampFromDate(k.createdAt),
    revokedAt: k.revokedAt ? timestampFromDate(k.revokedAt) : undefined,
  });
}

function required(field: string, value: string): string {
  if (!value)
    throw serviceError('ValidationError', `${field} is required`, { code: Code.InvalidArgument, field });
  return value;
}

/**
 * AdminService: tenant and key RPCs go to the tenant service; webhook RPCs are checked against the
 * tenant table (an unknown tenant is NotFound) and forwarded to the webhook service, whose own
 * validation errors come back to the operator as they are.
 */
export function createAdminHandlers(deps: {
  tenants: TenantService;
  webhook: WebhookAdminClient;
  payout: PayoutAdminClient;
}): ServiceImpl<typeof AdminService> {
  const { tenants, webhook, payout } = deps;
  return {
    async createTenant(req, ctx) {
      const created = await tenants.createTenant(
        {
          name: req.name,
          rateLimitPerMinute: req.rateLimitPerMinute,
          apiKey: req.apiKey || undefined,
          signingSecret: req.signingSecret || undefined,
          tenantId: req.tenantId || undefined,
        },
        { signal: ctx.signal },
      );
      return {
        tenant: toTenantMessage(created.tenant),
        apiKey: created.apiKey,
        signingSecret: created.signingSecret,
      };
    },

    async listTenants() {
      return { tenants: (await tenants.listTenants()).map(toTenantMessage) };
    },

    async updateTenant(req) {
      const tenant = await tenants.updateTenant(required('tenant_id', req.tenantId), {
        rateLimitPerMinute: req.rateLimitPerMinute,
      });
      return { tenant: toTenantMessage(tenant) };
    },

    async createApiKey(req) {
      const created = await tenants.createApiKey(required('tenant_id', req.tenantId));
      return { key: toApiKeyMessage(created.key), apiKey: created.apiKey };
    },

    async revokeApiKey(req) {
      return { key: toApiKeyMessage(await tenants.revokeApiKey(required('key_prefix', req.keyPrefix))) };
    },

    async listApiKeys(req) {
      const keys = await tenants.listApiKeys(required('tenant_id', req.tenantId));
      return { keys: keys.map(toApiKeyMessage) };
    },

    async createWebhookEndpoint(req, ctx) {
      const endpoint = req.endpoint;
      if (!endpoint) {
        throw serviceError('ValidationError', 'endpoint is required', {
          code: Code.InvalidArgument,
          field: 'endpoint',
        });
      }
      await tenants.getTenant(required('tenant_id', endpoint.tenantId));
      required('url', endpoint.url);
      const res = await webhook.createEndpoint(endpoint, { signal: ctx.signal });
      return { endpoint: res.endpoint };
    },

    async setWebhookEndpointEnabled(req, ctx) {
      const res = await webhook.setEndpointEnabled(
        { endpointId: required('endpoint_id', req.endpointId), enabled: req.enabled },
        { signal: ctx.signal },
      );
      return { endpoint: res.endpoint };
    },

    async listWebhookEndpoints(req, ctx) {
      const tenantId = required('tenant_id', req.tenantId);
      await tenants.getTenant(tenantId);
      const res = await webhook.listEndpoints({ tenantId }, { signal: ctx.signal });
      return { endpoints: res.endpoints };
    },

    async rotateSigningSecret(req, ctx) {
      const tenantId = required('tenant_id', req.tenantId);
      await tenants.getTenant(tenantId);
      // Unset grace stays unset: the webhook service owns the default (24 h) and the maximum.
      const res = await webhook.rotateSigningSecret(
        { tenantId, secret: '', gracePeriodSeconds: req.gracePeriodSeconds },
        { signal: ctx.signal },
      );
      return { signingSecret: res.secret, previousExpiresAt: res.previousExpiresAt };
    },

    async listWebhookDeliveries(req, ctx) {
      const tenantId = required('tenant_id', req.tenantId);
      await tenants.getTenant(tenantId);
      const res = await webhook.listDeliveries(
        { tenantId, transactionId: req.transactionId, status: req.status, page: req.page },
        { signal: ctx.signal },
      );
      return { deliveries: res.deliveries, pageInfo: res.pageInfo };
    },

    // Every tenant's unless one is named (it must exist); payout owns the horizons and the rule.
    async listStuckTransactions(req, ctx) {
      if (req.tenantId) await tenants.getTenant(req.tenantId);
      const res = await payout.listStuckTransactions(
        { tenantId: req.tenantId, limit: req.limit },
        { signal: ctx.signal },
      );
      return { transactions: res.transactions };
    },

    // The operator's scope is every tenant (all_tenants): deliveries are looked up by id alone.
    async getWebhookDelivery(req, ctx) {
      const res = await webhook.getDelivery(
        { deliveryId: required('delivery_id', req.deliveryId), allTenants: true },
        { signal: ctx.signal },
      );
      return { delivery: res.delivery, attempts: res.attempts };
    },

    async replayWebhookDelivery(req, ctx) {
      const res = await webhook.replayDelivery(
        { deliveryId: required('delivery_id', req.deliveryId), allTenants: true },
        { signal: ctx.signal },
      );
      return { delivery: res.delivery };
    },

    async pingWebhookEndpoint(req, ctx) {
      const res = await webhook.pingEndpoint(
        { endpointId: required('endpoint_id', req.endpointId) },
        { signal: ctx.signal },
      );
      return { delivery: res.delivery };
    },
  };
}
