import { Code, ConnectError } from '@connectrpc/connect';
import type { AdminClient } from './commands';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, errorJson, runPayoutctl } from './run';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

const env = { PAYOUT_ADMIN_TOKEN: 'op' };

describe('runPayoutctl', () => {
  it('exits 2 with a JSON usage error on stderr', async () => {
    const c = capture();
    expect(await runPayoutctl(['key', 'create'], env, c.io)).toBe(EXIT_USAGE);
    expect(c.out).toEqual([]);
    expect(JSON.parse(c.err.join(''))).toEqual({ error: { code: 'usage', message: '--tenant is required' } });
  });

  it('exits 1 with the RPC error as JSON on stderr', async () => {
    const c = capture();
    const failing = {
      createApiKey: async () => {
        throw new ConnectError('tenant ten_x not found', Code.NotFound);
      },
    } as unknown as AdminClient;
    expect(await runPayoutctl(['key', 'create', '--tenant', 'ten_x'], env, c.io, () => failing)).toBe(
      EXIT_FAILURE,
    );
    expect(JSON.parse(c.err.join(''))).toEqual({
      error: { code: 'not_found', message: 'tenant ten_x not found' },
    });
  });

  it('prints the command result as snake_case JSON', async () => {
    const c = capture();
    const admin = {
      rotateSigningSecret: async (req: { tenantId: string }) => ({
        signingSecret: `whsec-for-${req.tenantId}`,
      }),
    } as unknown as AdminClient;
    expect(await runPayoutctl(['secret', 'rotate', '--tenant', 'ten_1'], env, c.io, () => admin)).toBe(
      EXIT_OK,
    );
    expect(JSON.parse(c.out.join(''))).toEqual({ tenant_id: 'ten_1', signing_secret: 'whsec-for-ten_1' });
  });
});

describe('errorJson', () => {
  it('names codes in snake_case', () => {
    expect(errorJson(new ConnectError('bad', Code.InvalidArgument)).error.code).toBe('invalid_argument');
    expect(errorJson(new ConnectError('no', Code.Unauthenticated)).error.code).toBe('unauthenticated');
  });
});
