import { Code, serviceError } from '@qr-payout/platform/errors';

// Request checks shared by every RPC of this service. The gateway renders the tag as
// 400 ValidationError with a message naming the field (docs/api/errors.md "Error names").

/** 400 ValidationError naming the request field that is wrong. */
export function validationError(field: string, message: string) {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

// Tenant ids are made by the gateway (docs/architecture.md "Money and ids": prefix `ten_`); this
// service cannot look them up (each service owns its schema), so it checks their shape only.
const TENANT_ID = /^ten_[0-9A-Za-z_-]{1,64}$/;

/** Throws a ValidationError unless `tenantId` has the shape of a tenant id. */
export function requireTenantId(tenantId: string): string {
  if (!TENANT_ID.test(tenantId))
    throw validationError('tenant_id', 'tenant_id must be a tenant id (ten_...)');
  return tenantId;
}
