// What an operator may give for a tenant: its name, rate-limit override and bootstrap id, checked
// once for creation and update alike (the tenant service's callers); a bad value is an invalid_tenant_input naming its field.
import { invalidTenantInput } from './errors';
import { givenKeyProblem } from './keys';

export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;
const MAX_NAME_LENGTH = 200;
const TENANT_ID_PATTERN = /^ten_[0-9A-Za-z_-]{1,60}$/;

export function normalizeRateLimit(value: number | null | undefined): number | null {
  if (value === undefined || value === null || value === 0) return null;
  if (!Number.isInteger(value) || value < 0 || value > MAX_RATE_LIMIT_PER_MINUTE) {
    throw invalidTenantInput(
      'rate_limit_per_minute',
      `rate_limit_per_minute must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or 0 for the default`,
    );
  }
  return value;
}

export function normalizeName(value: string): string {
  const name = (value ?? '').trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw invalidTenantInput('name', `name is required (1 to ${MAX_NAME_LENGTH} characters)`);
  }
  return name;
}

export function requireTenantId(value: string): string {
  if (!value) throw invalidTenantInput('tenant_id', 'tenant_id is required');
  return value;
}

/** A bootstrap's given key and tenant id, checked before anything is looked up or written. */
export function checkBootstrapInput(input: { apiKey?: string; tenantId?: string }): void {
  if (input.apiKey) {
    const problem = givenKeyProblem(input.apiKey);
    if (problem) throw invalidTenantInput('api_key', problem);
  }
  if (input.tenantId && !TENANT_ID_PATTERN.test(input.tenantId)) {
    throw invalidTenantInput(
      'tenant_id',
      'tenant_id must be "ten_" followed by 1 to 60 letters, digits, _ or -',
    );
  }
}
