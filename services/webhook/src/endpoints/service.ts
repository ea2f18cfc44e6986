import { isId, newId } from '@qr-payout/platform';
import type { Pool } from 'pg';
import type { SealedBox } from '../crypto/sealed-box';
import { requireTenantId, validationError } from '../validation';
import type { CustomHeader } from './custom-headers';
import { checkEndpointInput, type EndpointInput } from './endpoint-draft';
import { endpointNotFound } from './errors';
import * as store from './store';

export type { EndpointRow } from './store';

// Registered endpoints (spec §2.3, §4.6, §5; design §7): created and switched on or off by the
// operator, listed with header names only.

export const DISABLED_BY_OPERATOR = 'operator';

export interface EndpointService {
  create(input: EndpointInput): Promise<store.EndpointRow>;
  setEnabled(endpointId: string, enabled: boolean): Promise<store.EndpointRow>;
  list(tenantId: string): Promise<store.EndpointRow[]>;
}

// Sealed header values are bound to their endpoint: a value copied to another row does not open.
export function headersSealContext(endpointId: string): string {
  return `endpoint-headers:${endpointId}`;
}

function sealHeaders(sealedBox: SealedBox, endpointId: string, headers: CustomHeader[]): Buffer | null {
  if (headers.length === 0) return null;
  const pairs = headers.map(({ name, value }) => [name, value]);
  return sealedBox.seal(Buffer.from(JSON.stringify(pairs), 'utf8'), headersSealContext(endpointId));
}

export function createEndpointService(deps: {
  pool: Pool;
  sealedBox: SealedBox;
  allowPrivateTargets: boolean;
}): EndpointService {
  const { pool, sealedBox, allowPrivateTargets } = deps;
  return {
    async create(input) {
      const draft = checkEndpointInput(input, { allowPrivateTargets });
      const id = newId('whe');
      return store.insertEndpoint(pool, {
        id,
        tenantId: draft.tenantId,
        url: draft.url,
        eventTypes: draft.eventTypes,
        headerNames: draft.headers.map((header) => header.name),
        headersSealed: sealHeaders(sealedBox, id, draft.headers),
        retryStrategy: draft.retryStrategy,
      });
    },

    async setEnabled(endpointId, enabled) {
      if (endpointId === '') throw validationError('endpoint_id', 'endpoint_id is required');
      if (!isId(endpointId, 'whe')) throw endpointNotFound(endpointId);
      const endpoint = await store.updateEndpointEnabled(pool, endpointId, enabled, DISABLED_BY_OPERATOR);
      if (!endpoint) throw endpointNotFound(endpointId);
      return endpoint;
    },

    async list(tenantId) {
      return store.listEndpointsByTenant(pool, requireTenantId(tenantId));
    },
  };
}
