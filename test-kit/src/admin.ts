// @qr-payout/test-kit/admin: the operator's admin API as payoutctl calls it, Connect over HTTP/1.1
// with the bearer operator token (docs/operators.md "Where the admin API and its token come from"),
// for tests that set up tenants and endpoints or test the admin API itself.
import { type Client, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { AdminService } from '@qr-payout/proto/payout/admin/v1/admin_pb';

export type AdminClient = Client<typeof AdminService>;

/** A client of the admin API at `adminUrl`; without `adminToken` it sends no Authorization. */
export function createAdminClient(adminUrl: string, adminToken?: string): AdminClient {
  const transport = createConnectTransport({
    baseUrl: adminUrl,
    httpVersion: '1.1',
    interceptors: [
      (next) => (req) => {
        if (adminToken !== undefined) req.header.set('authorization', `Bearer ${adminToken}`);
        return next(req);
      },
    ],
  });
  return createClient(AdminService, transport);
}
