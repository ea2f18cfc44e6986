import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorDetailSchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  DeliveryStatus,
  RetryStrategy,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { AdminClient } from './commands';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, errorJson, runPayoutctl } from './run';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

const env = { PAYOUT_ADMIN_TOKEN: 'op' };

/** An admin client whose one method fails as the transport or the server would. */
function failingAdmin(method: string, err: ConnectError): AdminClient {
  return {
    [method]: async () => {
      throw err;
    },
  } as unknown as AdminClient;
}

describe('runPayoutctl', () => {
  it('exits 2 with a JSON usage error on stderr', async () => {
    const c = capture();
    expect(await runPayoutctl(['key', 'create'], env, c.io)).toBe(EXIT_USAGE);
    expect(c.out).toEqual([]);
    expect(JSON.parse(c.err.join(''))).toEqual({ error: { code: 'usage', message: '--tenant is required' } });
  });

  it('exits 1 with the RPC error as JSON on stderr', async () => {
    const c = capture();
    const failing = failingAdmin('createApiKey', new ConnectError('tenant ten_x not found', Code.NotFound));
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
    expect(JSON.parse(c.out.join(''))).toEqual({
      signing_secret: 'whsec-for-ten_1',
      previous_expires_at: null,
    });
  });

  it('passes --grace to the rotation and prints until when the previous secret signs', async () => {
    const c = capture();
    const asked: unknown[] = [];
    const admin = {
      rotateSigningSecret: async (req: unknown) => {
        asked.push(req);
        return {
          signingSecret: 'whsec-new',
          previousExpiresAt: timestampFromDate(new Date('2026-11-25T12:00:00.000Z')),
        };
      },
    } as unknown as AdminClient;
    const argv = ['secret', 'rotate', '--tenant', 'ten_1', '--grace', '24h'];
    expect(await runPayoutctl(argv, env, c.io, () => admin)).toBe(EXIT_OK);
    expect(asked).toEqual([{ tenantId: 'ten_1', gracePeriodSeconds: 86_400 }]);
    expect(JSON.parse(c.out.join(''))).toEqual({
      signing_secret: 'whsec-new',
      previous_expires_at: '2026-11-25T12:00:00.000Z',
    });
  });
});

const AT = timestampFromDate(new Date('2026-11-24T12:00:00.123Z'));

function delivery(overrides: { status?: DeliveryStatus; transactionId?: string; endpointId?: string } = {}) {
  return create(DeliverySchema, {
    id: 'whd_01JD0000000000000000000001',
    tenantId: 'ten_1',
    eventId: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
    eventType: 'transaction.completed',
    transactionId: 'txn_01JD0000000000000000000001',
    endpointId: 'whe_01JD0000000000000000000001',
    url: 'https://hooks.example.com/p',
    status: DeliveryStatus.DELIVERED,
    attempts: 1,
    maxAttempts: 16,
    retryStrategy: RetryStrategy.STANDARD,
    lastAttemptAt: AT,
    lastResponseStatus: 200,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  });
}

const DELIVERY_JSON = {
  id: 'whd_01JD0000000000000000000001',
  tenant_id: 'ten_1',
  event_id: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
  event_type: 'transaction.completed',
  transaction_id: 'txn_01JD0000000000000000000001',
  endpoint_id: 'whe_01JD0000000000000000000001',
  url: 'https://hooks.example.com/p',
  status: 'delivered',
  attempts: 1,
  max_attempts: 16,
  retry_strategy: 'standard',
  next_attempt_at: null,
  last_attempt_at: '2026-11-24T12:00:00.123Z',
  last_response_status: 200,
  last_error: null,
  created_at: '2026-11-24T12:00:00.123Z',
  updated_at: '2026-11-24T12:00:00.123Z',
};

describe('payoutctl delivery and ping commands', () => {
  it('lists deliveries with the filters mapped to the admin API and next_cursor null on the last page', async () => {
    const c = capture();
    const asked: unknown[] = [];
    const admin = {
      listWebhookDeliveries: async (req: unknown) => {
        asked.push(req);
        return { deliveries: [delivery()], pageInfo: { nextCursor: '' } };
      },
    } as unknown as AdminClient;
    const argv = [
      'delivery',
      'list',
      '--tenant',
      'ten_1',
      '--status',
      'failed',
      '--limit',
      '5',
      '--cursor',
      'c1',
    ];
    expect(await runPayoutctl(argv, env, c.io, () => admin)).toBe(EXIT_OK);
    expect(asked).toEqual([
      {
        tenantId: 'ten_1',
        transactionId: '',
        status: DeliveryStatus.FAILED,
        page: { limit: 5, cursor: 'c1' },
      },
    ]);
    expect(JSON.parse(c.out.join(''))).toEqual({ deliveries: [DELIVERY_JSON], next_cursor: null });
  });

  it('shows a delivery with its attempt log', async () => {
    const c = capture();
    const admin = {
      getWebhookDelivery: async () => ({
        delivery: delivery(),
        attempts: [
          create(DeliveryAttemptSchema, {
            attemptNumber: 1,
            trigger: 'scheduled',
            startedAt: AT,
            durationMs: 5000,
            errorClass: 'timeout',
            error: 'no answer',
          }),
        ],
      }),
    } as unknown as AdminClient;
    expect(await runPayoutctl(['delivery', 'show', 'whd_1'], env, c.io, () => admin)).toBe(EXIT_OK);
    expect(JSON.parse(c.out.join(''))).toEqual({
      delivery: {
        ...DELIVERY_JSON,
        attempt_log: [
          {
            attempt_number: 1,
            trigger: 'scheduled',
            started_at: '2026-11-24T12:00:00.123Z',
            duration_ms: 5000,
            response_status: null,
            error_class: 'timeout',
            error: 'no answer',
            resolved_address: null,
            response_excerpt: null,
            succeeded: false,
          },
        ],
      },
    });
  });

  it('prints the replayed delivery and the queued ping (null transaction for a ping)', async () => {
    const c = capture();
    const admin = {
      replayWebhookDelivery: async () => ({
        delivery: delivery({ status: DeliveryStatus.PENDING }),
      }),
      pingWebhookEndpoint: async (req: { endpointId: string }) => ({
        delivery: delivery({ status: DeliveryStatus.PENDING, transactionId: '', endpointId: req.endpointId }),
      }),
    } as unknown as AdminClient;
    expect(await runPayoutctl(['delivery', 'replay', 'whd_1'], env, c.io, () => admin)).toBe(EXIT_OK);
    expect(JSON.parse(c.out.join(''))).toEqual({ delivery: { ...DELIVERY_JSON, status: 'pending' } });
    c.out.length = 0;
    expect(await runPayoutctl(['endpoint', 'ping', 'whe_9'], env, c.io, () => admin)).toBe(EXIT_OK);
    expect(JSON.parse(c.out.join('')).delivery).toMatchObject({
      status: 'pending',
      transaction_id: null,
      endpoint_id: 'whe_9',
    });
  });

  it('exits 1 with the failed precondition of a replay in flight', async () => {
    const c = capture();
    const admin = {
      replayWebhookDelivery: async () => {
        throw new ConnectError('delivery whd_1 is pending', Code.FailedPrecondition);
      },
    } as unknown as AdminClient;
    expect(await runPayoutctl(['delivery', 'replay', 'whd_1'], env, c.io, () => admin)).toBe(EXIT_FAILURE);
    expect(JSON.parse(c.err.join(''))).toEqual({
      error: { code: 'failed_precondition', message: 'delivery whd_1 is pending' },
    });
  });
});

describe('errorJson', () => {
  it('names codes in snake_case', () => {
    expect(errorJson(new ConnectError('bad', Code.InvalidArgument)).error.code).toBe('invalid_argument');
    expect(errorJson(new ConnectError('no', Code.Unauthenticated)).error.code).toBe('unauthenticated');
  });

  it('adds the field the server named, as docs/operators.md shows it', () => {
    const notFound = new ConnectError('tenant ten_x not found', Code.NotFound, undefined, [
      {
        desc: ErrorDetailSchema,
        value: { tag: 'NotFoundError', message: 'tenant ten_x not found', field: 'tenant_id' },
      },
    ]);
    expect(JSON.stringify(errorJson(notFound))).toBe(
      '{"error":{"code":"not_found","message":"tenant ten_x not found","field":"tenant_id"}}',
    );
  });

  it("adds the server's Retry-After as retry_after_seconds, and nothing when there is none", () => {
    const tooSoon = new ConnectError('again in 7 s', Code.ResourceExhausted, { 'retry-after': '7' });
    expect(errorJson(tooSoon).error).toEqual({
      code: 'resource_exhausted',
      message: 'again in 7 s',
      retry_after_seconds: 7,
    });
    expect(errorJson(new ConnectError('no', Code.ResourceExhausted)).error).not.toHaveProperty(
      'retry_after_seconds',
    );
  });
});

describe('payoutctl when no admin API answers', () => {
  it('says which admin URL it tried and how to set it', async () => {
    const c = capture();
    const unreachable = failingAdmin(
      'listTenants',
      new ConnectError('connect ECONNREFUSED 127.0.0.1:9081', Code.Unavailable),
    );
    const envWithUrl = { ...env, PAYOUT_ADMIN_URL: 'http://127.0.0.1:9081' };
    expect(await runPayoutctl(['tenant', 'list'], envWithUrl, c.io, () => unreachable)).toBe(EXIT_FAILURE);
    expect(JSON.parse(c.err.join(''))).toEqual({
      error: {
        code: 'unavailable',
        message:
          "connect ECONNREFUSED 127.0.0.1:9081: no admin API answered at http://127.0.0.1:9081; set PAYOUT_ADMIN_URL or --admin-url to the gateway's admin URL (the sandbox prints it at start, on its Admin API line)",
      },
    });
  });
});
