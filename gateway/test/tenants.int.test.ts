import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Code, ConnectError } from '@connectrpc/connect';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { silentLogger } from '@qr-payout/platform/log';
import { testInfra } from '@qr-payout/test-kit/infra';
import type pg from 'pg';
import { createTenantService, type SigningSecretClient, type TenantService } from '../src/tenants/service';
import { createTenantStore } from '../src/tenants/store';

// Tenant service against a real PostgreSQL, in a schema of its own (DB_SCHEMA isolation).

const DEFAULT_LIMIT = 100;

const schema = `gw_tenants_${randomBytes(6).toString('hex')}`;
let pool: pg.Pool;

/** In-process stand-in for the webhook service's RotateSigningSecret (the admin test uses real gRPC). */
function fakeWebhook() {
  const calls: { tenantId: string; secret: string }[] = [];
  let failNext = false;
  const client: SigningSecretClient = {
    rotateSigningSecret: (async (req: { tenantId: string; secret: string }) => {
      calls.push({ tenantId: req.tenantId, secret: req.secret });
      if (failNext) {
        failNext = false;
        throw new ConnectError('webhook service down', Code.Unavailable);
      }
      return { secret: req.secret || `whsec_${randomBytes(16).toString('hex')}` };
    }) as unknown as SigningSecretClient['rotateSigningSecret'],
  };
  return { client, calls, failOnce: () => (failNext = true) };
}

function service(webhook: SigningSecretClient, opts: { ttlMs?: number } = {}): TenantService {
  return createTenantService({
    store: createTenantStore(pool),
    webhook,
    logger: silentLogger(),
    defaultRateLimit: DEFAULT_LIMIT,
    authCacheTtlMs: opts.ttlMs ?? 10_000,
    negativeCacheTtlMs: Math.min(100, opts.ttlMs ?? 100),
  });
}

async function expectCode(promise: Promise<unknown>, code: Code): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConnectError);
  expect(Code[(err as ConnectError).code]).toBe(Code[code]);
}

beforeAll(async () => {
  pool = createPgPool({ connectionString: testInfra.databaseUrl, schema, max: 4 });
  await migrate(pool, { schema, dir: path.join(__dirname, '../migrations') });
});

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe('tenant service', () => {
  it('creates a tenant with a key and a signing secret, and authenticates the key', async () => {
    const webhook = fakeWebhook();
    const tenants = service(webhook.client);
    const created = await tenants.createTenant({ name: ' Acme Remittances ' });

    expect(created.created).toBe(true);
    expect(created.tenant.id).toMatch(/^ten_[0-9A-Z]{26}$/);
    expect(created.tenant.name).toBe('Acme Remittances');
    expect(created.tenant.rateLimitPerMinute).toBeNull();
    expect(created.apiKey).toMatch(/^qrp_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(webhook.calls).toEqual([{ tenantId: created.tenant.id, secret: '' }]);
    expect(created.signingSecret).toMatch(/^whsec_/);

    await expect(tenants.authenticate(created.apiKey)).resolves.toEqual({
      tenantId: created.tenant.id,
      keyPrefix: created.apiKey.slice(0, 12),
      rateLimitPerMinute: DEFAULT_LIMIT,
    });
  });

  it('answers null for a wrong, empty or oversized key', async () => {
    const tenants = service(fakeWebhook().client);
    const { apiKey } = await tenants.createTenant({ name: 'Wrong keys' });
    const tampered = apiKey.slice(0, -1) + (apiKey.endsWith('a') ? 'b' : 'a');
    await expect(tenants.authenticate(tampered)).resolves.toBeNull();
    await expect(tenants.authenticate(apiKey.slice(0, 12))).resolves.toBeNull();
    await expect(tenants.authenticate('')).resolves.toBeNull();
    await expect(tenants.authenticate('x'.repeat(10_000))).resolves.toBeNull();
  });

  it('stops accepting a revoked key: at once on this replica, within the TTL on another', async () => {
    const ttlMs = 300;
    const replicaA = service(fakeWebhook().client, { ttlMs });
    const replicaB = service(fakeWebhook().client, { ttlMs });
    const { tenant, apiKey } = await replicaA.createTenant({ name: 'Revocation' });
    const prefix = apiKey.slice(0, 12);
    expect(await replicaA.authenticate(apiKey)).not.toBeNull();
    expect(await replicaB.authenticate(apiKey)).not.toBeNull();

    const revoked = await replicaB.revokeApiKey(prefix);
    expect(revoked).toMatchObject({ prefix, tenantId: tenant.id });
    expect(revoked.revokedAt).toBeInstanceOf(Date);

    await expect(replicaB.authenticate(apiKey)).resolves.toBeNull();
    // Replica A still holds its cached answer: the documented revocation delay.
    expect(await replicaA.authenticate(apiKey)).not.toBeNull();
    await delay(ttlMs + 50);
    await expect(replicaA.authenticate(apiKey)).resolves.toBeNull();

    const keys = await replicaA.listApiKeys(tenant.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.revokedAt).toEqual(revoked.revokedAt);
  });

  it('applies a rate-limit override and its removal', async () => {
    const tenants = service(fakeWebhook().client);
    const { tenant, apiKey } = await tenants.createTenant({ name: 'Big sender', rateLimitPerMinute: 250 });
    expect(tenant.rateLimitPerMinute).toBe(250);
    expect((await tenants.authenticate(apiKey))?.rateLimitPerMinute).toBe(250);

    const updated = await tenants.updateTenant(tenant.id, { rateLimitPerMinute: 0 });
    expect(updated.rateLimitPerMinute).toBeNull();
    expect((await tenants.authenticate(apiKey))?.rateLimitPerMinute).toBe(DEFAULT_LIMIT);

    await tenants.updateTenant(tenant.id, { rateLimitPerMinute: 40 });
    expect((await tenants.authenticate(apiKey))?.rateLimitPerMinute).toBe(40);
  });

  it('gives two tenants distinct keys, each resolving to its own tenant', async () => {
    const tenants = service(fakeWebhook().client);
    const a = await tenants.createTenant({ name: 'Tenant A' });
    const b = await tenants.createTenant({ name: 'Tenant B' });
    expect(a.tenant.id).not.toBe(b.tenant.id);
    expect(a.apiKey).not.toBe(b.apiKey);
    expect((await tenants.authenticate(a.apiKey))?.tenantId).toBe(a.tenant.id);
    expect((await tenants.authenticate(b.apiKey))?.tenantId).toBe(b.tenant.id);

    const extra = await tenants.createApiKey(a.tenant.id);
    expect(extra.key.tenantId).toBe(a.tenant.id);
    expect((await tenants.authenticate(extra.apiKey))?.keyPrefix).toBe(extra.key.prefix);
    expect((await tenants.listApiKeys(a.tenant.id)).map((k) => k.prefix).sort()).toEqual(
      [a.apiKey.slice(0, 12), extra.key.prefix].sort(),
    );
  });

  it('stores only hashes: no raw key appears in any column of any row', async () => {
    const tenants = service(fakeWebhook().client);
    const { tenant, apiKey } = await tenants.createTenant({ name: 'Hash only' });
    const second = await tenants.createApiKey(tenant.id);
    const secretParts = [apiKey, apiKey.slice(13), second.apiKey, second.apiKey.slice(13)];

    const rows = await pool.query<{ row: string }>(
      'SELECT t::text AS row FROM tenants t UNION ALL SELECT k::text FROM api_keys k',
    );
    expect(rows.rows.length).toBeGreaterThanOrEqual(3);
    for (const { row } of rows.rows) {
      for (const secret of secretParts) expect(row).not.toContain(secret);
    }
    const stored = await pool.query<{ key_hash: Buffer }>('SELECT key_hash FROM api_keys WHERE prefix = $1', [
      apiKey.slice(0, 12),
    ]);
    expect(stored.rows[0]!.key_hash.equals(createHash('sha256').update(apiKey).digest())).toBe(true);
  });

  it('bootstraps idempotently with a given tenant id, key and secret (sandbox)', async () => {
    const webhook = fakeWebhook();
    const tenants = service(webhook.client);
    const tenantId = `ten_sandbox_${randomBytes(4).toString('hex')}`;
    const input = {
      name: 'Sandbox',
      tenantId,
      // A key is known by its first 12 characters: random ones there, as the sandbox's own
      // (qrp_<8 random>_…), or two keys of this test share a prefix one time in 16.
      apiKey: `qrp_${randomBytes(4).toString('hex')}_${randomBytes(16).toString('hex')}`,
      signingSecret: 'given-secret',
    };

    const first = await tenants.createTenant(input);
    const second = await tenants.createTenant(input);
    expect(first).toMatchObject({ created: true, apiKey: input.apiKey, signingSecret: 'given-secret' });
    expect(second).toMatchObject({ created: false, apiKey: input.apiKey, signingSecret: 'given-secret' });
    expect(second.tenant.id).toBe(tenantId);
    expect(webhook.calls).toEqual([
      { tenantId, secret: 'given-secret' },
      { tenantId, secret: 'given-secret' },
    ]);
    expect(await tenants.listApiKeys(tenantId)).toHaveLength(1);
    await expect(tenants.authenticate(input.apiKey)).resolves.toMatchObject({
      tenantId,
      keyPrefix: input.apiKey.slice(0, 12),
    });

    // A new given key for the existing tenant is added; a key of another tenant is refused.
    const rotatedKey = `qrp_${randomBytes(4).toString('hex')}_${randomBytes(16).toString('hex')}`;
    await tenants.createTenant({ ...input, apiKey: rotatedKey });
    expect(await tenants.listApiKeys(tenantId)).toHaveLength(2);
    const other = await tenants.createTenant({ name: 'Other' });
    await expectCode(tenants.createTenant({ ...input, apiKey: other.apiKey }), Code.InvalidArgument);
  });

  it('undoes the tenant when the signing secret cannot be set', async () => {
    const webhook = fakeWebhook();
    const tenants = service(webhook.client);
    webhook.failOnce();
    const name = `Unlucky ${randomBytes(4).toString('hex')}`;
    await expectCode(tenants.createTenant({ name }), Code.Unavailable);
    expect((await tenants.listTenants()).map((t) => t.name)).not.toContain(name);
  });

  it('refuses bad input and unknown ids with coded errors', async () => {
    const tenants = service(fakeWebhook().client);
    await expectCode(tenants.createTenant({ name: '  ' }), Code.InvalidArgument);
    await expectCode(tenants.createTenant({ name: 'x', rateLimitPerMinute: -1 }), Code.InvalidArgument);
    await expectCode(tenants.createTenant({ name: 'x', rateLimitPerMinute: 1.5 }), Code.InvalidArgument);
    await expectCode(tenants.createTenant({ name: 'x', apiKey: 'short' }), Code.InvalidArgument);
    await expectCode(tenants.createTenant({ name: 'x', tenantId: 'tenant-1' }), Code.InvalidArgument);
    await expectCode(tenants.createApiKey('ten_missing'), Code.NotFound);
    await expectCode(tenants.listApiKeys('ten_missing'), Code.NotFound);
    await expectCode(tenants.updateTenant('ten_missing', { rateLimitPerMinute: 5 }), Code.NotFound);
    await expectCode(tenants.revokeApiKey('qrp_missing0'), Code.NotFound);
  });
});
