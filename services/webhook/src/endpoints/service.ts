import { isId, newId } from '@qr-payout/platform/ids';
import type { SealedBox } from '../crypto/sealed-box';
import type { DeliveryStore } from '../deliveries/store';
import { requireTenantId, validationError } from '../validation';
import { type CustomHeader, isReservedHeaderName } from './custom-headers';
import { checkEndpointInput, type EndpointInput } from './endpoint-draft';
import { endpointNotFound } from './errors';
import type * as store from './store';

export type { EndpointRow } from './store';

// Registered endpoints (docs/api/resources.md "Webhook endpoints";
// docs/api/webhooks.md "The signature"; docs/architecture.md "Operators"): created and switched on
// or off by the operator, listed with header names only.

export const DISABLED_BY_OPERATOR = 'operator';
/** endpoints.disabled_reason set by auto-disable (docs/api/webhooks.md "Auto-disable"). */
export const DISABLED_AFTER_FAILING = 'failing for 5 days';
/** deliveries.last_error of the deliveries failed because their endpoint was disabled. */
export const ENDPOINT_DISABLED_ERROR =
  'endpoint disabled; enable it (payoutctl endpoint enable) and replay this delivery';

export interface EndpointService {
  create(input: EndpointInput): Promise<store.EndpointRow>;
  setEnabled(endpointId: string, enabled: boolean): Promise<store.EndpointRow>;
  list(tenantId: string): Promise<store.EndpointRow[]>;
}

// Sealed header values are bound to their endpoint: a value copied to another row does not open.
export function headersSealContext(endpointId: string): string {
  return `endpoint-headers:${endpointId}`;
}

/**
 * The custom headers of an endpoint that may be sent, opened to be sent (never to be shown). An
 * endpoint registered before a name became reserved keeps it stored; it is never sent
 * (docs/api/webhooks.md "Custom headers").
 */
export function openEndpointHeaders(
  sealedBox: SealedBox,
  endpointId: string,
  sealed: Buffer,
): CustomHeader[] {
  const pairs = JSON.parse(sealedBox.open(sealed, headersSealContext(endpointId)).toString('utf8')) as Array<
    [string, string]
  >;
  return pairs.filter(([name]) => !isReservedHeaderName(name)).map(([name, value]) => ({ name, value }));
}

function sealHeaders(sealedBox: SealedBox, endpointId: string, headers: CustomHeader[]): Buffer | null {
  if (headers.length === 0) return null;
  const pairs = headers.map(({ name, value }) => [name, value]);
  return sealedBox.seal(Buffer.from(JSON.stringify(pairs), 'utf8'), headersSealContext(endpointId));
}

export function createEndpointService(deps: {
  endpoints: store.EndpointStore;
  deliveries: DeliveryStore;
  sealedBox: SealedBox;
  allowPrivateTargets: boolean;
  /** Told which tenant's endpoints changed, so this process's dispatcher reads them at once. */
  onEndpointsChanged?: (tenantId: string) => void;
}): EndpointService {
  const { endpoints, deliveries, sealedBox, allowPrivateTargets } = deps;
  const changed = deps.onEndpointsChanged ?? (() => undefined);
  return {
    async create(input) {
      const draft = checkEndpointInput(input, { allowPrivateTargets });
      const id = newId('whe');
      const created = await endpoints.insertEndpoint({
        id,
        tenantId: draft.tenantId,
        url: draft.url,
        eventTypes: draft.eventTypes,
        headerNames: draft.headers.map((header) => header.name),
        headersSealed: sealHeaders(sealedBox, id, draft.headers),
        retryStrategy: draft.retryStrategy,
      });
      changed(draft.tenantId);
      return created;
    },

    async setEnabled(endpointId, enabled) {
      if (endpointId === '') throw validationError('endpoint_id', 'endpoint_id is required');
      if (!isId(endpointId, 'whe')) throw endpointNotFound(endpointId);
      const endpoint = await endpoints.updateEndpointEnabled(endpointId, enabled, DISABLED_BY_OPERATOR);
      if (!endpoint) throw endpointNotFound(endpointId);
      changed(endpoint.tenantId);
      // Disabled by the operator: its waiting deliveries fail now, replayable once it is enabled
      // again (as after auto-disable, docs/api/webhooks.md "Auto-disable").
      if (!enabled) await deliveries.failPendingDeliveriesOfEndpoint(endpointId, ENDPOINT_DISABLED_ERROR);
      return endpoint;
    },

    async list(tenantId) {
      return endpoints.listEndpointsByTenant(requireTenantId(tenantId));
    },
  };
}
