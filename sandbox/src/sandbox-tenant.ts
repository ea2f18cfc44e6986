import { createClient, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { AdminService } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import { SANDBOX_TENANT_ID, type SandboxCredentials } from './credentials';

export { SANDBOX_TENANT_ID };

// docs/api/resources.md "Authentication": "A sandbox key is pre-configured with a test tenant". The
// tenant is ensured on every start through the admin API, the operator's own path
// (docs/architecture.md "Operators"): CreateTenant with a given id, key and secret is idempotent,
// so a restart finds the tenant and keeps its data.

export const SANDBOX_TENANT_NAME = 'Sandbox';

function bearer(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set('authorization', `Bearer ${token}`);
    return next(req);
  };
}

export async function ensureSandboxTenant(opts: {
  adminUrl: string;
  credentials: Pick<SandboxCredentials, 'apiKey' | 'signingSecret' | 'adminToken'>;
  timeoutMs?: number;
}): Promise<void> {
  const transport = createConnectTransport({
    baseUrl: opts.adminUrl,
    httpVersion: '1.1',
    interceptors: [bearer(opts.credentials.adminToken)],
  });
  const admin = createClient(AdminService, transport);
  await admin.createTenant(
    {
      tenantId: SANDBOX_TENANT_ID,
      name: SANDBOX_TENANT_NAME,
      apiKey: opts.credentials.apiKey,
      signingSecret: opts.credentials.signingSecret,
    },
    { timeoutMs: opts.timeoutMs ?? 30_000 },
  );
}
