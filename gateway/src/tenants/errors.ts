import type { ConnectError } from '@connectrpc/connect';
import { Code, serviceError } from '@qr-payout/platform/errors';

// Coded errors of the tenant service; the admin API returns them as they are (message safe to show).

export function invalidTenantInput(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

export function tenantNotFound(tenantId: string): ConnectError {
  return serviceError('NotFoundError', `tenant ${tenantId} not found`, {
    code: Code.NotFound,
    field: 'tenant_id',
  });
}

export function apiKeyNotFound(prefix: string): ConnectError {
  return serviceError('NotFoundError', `API key ${prefix} not found`, {
    code: Code.NotFound,
    field: 'key_prefix',
  });
}
