import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  DeliveryStatus,
  RetryStrategy,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import {
  deliveryStatusOf,
  isPublicDeliveryStatus,
  PUBLIC_DELIVERY_STATUSES,
  toPublicWebhookDelivery,
  toPublicWebhookDeliveryAttempt,
  toPublicWebhookDeliveryWithAttempts,
} from './webhook-delivery';

const CREATED = new Date('2026-11-24T12:00:00.123Z');
const UPDATED = new Date('2026-11-24T12:00:05.456Z');
const NEXT = new Date('2026-11-24T12:05:00.000Z');

function delivery(overrides: MessageInitShape<typeof DeliverySchema> = {}) {
  return create(DeliverySchema, {
    id: 'whd_01JD0000000000000000000001',
    tenantId: 'ten_a',
    eventId: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
    eventType: 'transaction.failed',
    transactionId: 'txn_01JD0000000000000000000001',
    endpointId: 'whe_01JD0000000000000000000001',
    url: 'https://hooks.example.com/payouts',
    status: DeliveryStatus.PENDING,
    attempts: 3,
    maxAttempts: 17,
    retryStrategy: RetryStrategy.EXTENDED,
    nextAttemptAt: timestampFromDate(NEXT),
    lastAttemptAt: timestampFromDate(UPDATED),
    lastResponseStatus: 503,
    lastError: 'HTTP 503',
    createdAt: timestampFromDate(CREATED),
    updatedAt: timestampFromDate(UPDATED),
    ...overrides,
  });
}

describe('toPublicWebhookDelivery', () => {
  it('shows every field in snake_case with ISO timestamps in milliseconds', () => {
    expect(toPublicWebhookDelivery(delivery())).toEqual({
      id: 'whd_01JD0000000000000000000001',
      event_id: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
      event_type: 'transaction.failed',
      transaction_id: 'txn_01JD0000000000000000000001',
      endpoint_id: 'whe_01JD0000000000000000000001',
      url: 'https://hooks.example.com/payouts',
      status: 'pending',
      attempts: 3,
      max_attempts: 17,
      retry_strategy: 'extended',
      next_attempt_at: '2026-11-24T12:05:00.000Z',
      last_attempt_at: '2026-11-24T12:00:05.456Z',
      last_response_status: 503,
      last_error: 'HTTP 503',
      created_at: '2026-11-24T12:00:00.123Z',
      updated_at: '2026-11-24T12:00:05.456Z',
    });
  });

  it('never shows the tenant', () => {
    expect(toPublicWebhookDelivery(delivery())).not.toHaveProperty('tenant_id');
  });

  it('shows "not set" as null: a ping, the callback_url path, a delivery never attempted', () => {
    const shown = toPublicWebhookDelivery(
      delivery({
        eventType: 'webhook.ping',
        transactionId: '',
        endpointId: '',
        status: DeliveryStatus.DELIVERED,
        attempts: 0,
        retryStrategy: RetryStrategy.UNSPECIFIED,
        nextAttemptAt: undefined,
        lastAttemptAt: undefined,
        lastResponseStatus: 0,
        lastError: '',
      }),
    );
    expect(shown).toMatchObject({
      transaction_id: null,
      endpoint_id: null,
      status: 'delivered',
      retry_strategy: 'standard',
      next_attempt_at: null,
      last_attempt_at: null,
      last_response_status: null,
      last_error: null,
    });
  });

  it.each([
    [DeliveryStatus.PENDING, 'pending'],
    [DeliveryStatus.DELIVERING, 'delivering'],
    [DeliveryStatus.DELIVERED, 'delivered'],
    [DeliveryStatus.FAILED, 'failed'],
    [DeliveryStatus.EXHAUSTED, 'exhausted'],
  ])('names status %i as %s, and the filter maps it back', (status, name) => {
    expect(toPublicWebhookDelivery(delivery({ status })).status).toBe(name);
    expect(isPublicDeliveryStatus(name)).toBe(true);
    expect(deliveryStatusOf(name as (typeof PUBLIC_DELIVERY_STATUSES)[number])).toBe(status);
  });

  it('knows exactly the five states of docs/api/webhooks.md "Delivery states"', () => {
    expect(PUBLIC_DELIVERY_STATUSES).toEqual(['pending', 'delivering', 'delivered', 'failed', 'exhausted']);
    expect(isPublicDeliveryStatus('PENDING')).toBe(false);
    expect(isPublicDeliveryStatus('toString')).toBe(false);
  });
});

describe('toPublicWebhookDeliveryAttempt', () => {
  it('shows a failed attempt without an answer with nulls for what did not happen', () => {
    const attempt = create(DeliveryAttemptSchema, {
      attemptNumber: 1,
      trigger: 'scheduled',
      startedAt: timestampFromDate(CREATED),
      durationMs: 5001,
      responseStatus: 0,
      errorClass: 'timeout',
      error: 'no answer within 5 s',
      resolvedAddress: '',
      responseExcerpt: '',
      succeeded: false,
    });
    expect(toPublicWebhookDeliveryAttempt(attempt)).toEqual({
      attempt_number: 1,
      trigger: 'scheduled',
      started_at: '2026-11-24T12:00:00.123Z',
      duration_ms: 5001,
      response_status: null,
      error_class: 'timeout',
      error: 'no answer within 5 s',
      resolved_address: null,
      response_excerpt: null,
      succeeded: false,
    });
  });

  it('shows a successful attempt with its answer', () => {
    const attempt = create(DeliveryAttemptSchema, {
      attemptNumber: 1,
      trigger: 'replay',
      startedAt: timestampFromDate(UPDATED),
      durationMs: 12,
      responseStatus: 204,
      resolvedAddress: '203.0.113.7',
      responseExcerpt: 'ok',
      succeeded: true,
    });
    expect(toPublicWebhookDeliveryAttempt(attempt)).toMatchObject({
      trigger: 'replay',
      response_status: 204,
      error_class: null,
      error: null,
      resolved_address: '203.0.113.7',
      response_excerpt: 'ok',
      succeeded: true,
    });
  });

  it('adds the attempts, in the order given, as attempt_log', () => {
    const attempts = [1, 2].map((n) =>
      create(DeliveryAttemptSchema, { attemptNumber: n, trigger: 'scheduled' }),
    );
    const shown = toPublicWebhookDeliveryWithAttempts(delivery(), attempts, 7);
    expect(shown.attempt_log.map((a) => a.attempt_number)).toEqual([1, 2]);
    expect(shown.earlier_attempts).toBe(7);
    expect(shown.id).toBe('whd_01JD0000000000000000000001');
  });
});
