import { createHmac } from 'node:crypto';
import { createMemoryDeduplicator, type EventDeduplicator } from './dedupe';
import { type ReceiveWebhookOptions, receiveWebhook } from './receive';
import { signWebhookBody } from './signature';

const SECRET = 'whsec_receive_test_secret_0123456789';
const T = 1_750_000_000;
const NOW = new Date(T * 1000 + 999);
const EVENT_ID = '7d9e2c1a-4b3f-4a5e-8d6c-0f1e2d3c4b5a';

function body(over: Record<string, unknown> = {}): Buffer {
  return Buffer.from(
    JSON.stringify({
      schema_version: '1',
      event_id: EVENT_ID,
      event_type: 'transaction.failed',
      occurred_at: '2025-06-15T15:06:40.000Z',
      data: {
        transaction_id: 'txn_01JD0000000000000000000009',
        instruction_id: 'ins_01JD0000000000000000000009',
        status: 'failed',
        result: null,
        error: { reason: 'insufficient funds', code: 'AM04', partnerStatus: 'RJCT' },
      },
      ...over,
    }),
  );
}

function signedHeaders(rawBody: Buffer, secret = SECRET, t = T): Record<string, string> {
  const digest = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
  return {
    'content-type': 'application/json',
    'service-signature': `t=${t},v1=${digest}`,
    'x-event-id': EVENT_ID,
    'x-event-type': 'transaction.failed',
  };
}

const receive = (over: Partial<ReceiveWebhookOptions> & { rawBody: Buffer }) =>
  receiveWebhook({ headers: signedHeaders(over.rawBody), secrets: SECRET, now: NOW, ...over });

describe('receiveWebhook', () => {
  it('200 with the event for a new delivery, 200 duplicate for the same event again', async () => {
    const dedupe = createMemoryDeduplicator();
    const rawBody = body();
    const first = await receive({ rawBody, dedupe });
    expect(first).toMatchObject({ status: 200, duplicate: false, event: { event_id: EVENT_ID } });
    expect(first.event?.event_type).toBe('transaction.failed');
    // A retry is signed again with a new timestamp: still a duplicate.
    const retry = await receive({ rawBody, dedupe, headers: signedHeaders(rawBody, SECRET, T + 30) });
    expect(retry).toMatchObject({ status: 200, duplicate: true, event: { event_id: EVENT_ID } });
  });

  it('without a deduplicator every verified event reads as new', async () => {
    const rawBody = body();
    expect(await receive({ rawBody })).toMatchObject({ status: 200, duplicate: false });
    expect(await receive({ rawBody })).toMatchObject({ status: 200, duplicate: false });
  });

  it('401 for a missing, malformed, stale or wrong signature, before looking at the body', async () => {
    const dedupe = createMemoryDeduplicator();
    const rawBody = body();
    const { 'service-signature': _dropped, ...unsigned } = signedHeaders(rawBody);
    expect(await receive({ rawBody, dedupe, headers: unsigned })).toEqual({
      status: 401,
      duplicate: false,
      reason: 'missing_header',
    });
    expect(await receive({ rawBody, dedupe, headers: { 'service-signature': 'nonsense' } })).toMatchObject({
      status: 401,
      reason: 'malformed_header',
    });
    expect(
      await receive({ rawBody, dedupe, headers: signedHeaders(rawBody, SECRET, T - 301) }),
    ).toMatchObject({
      status: 401,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(await receive({ rawBody, dedupe, headers: signedHeaders(rawBody, 'whsec_wrong') })).toMatchObject({
      status: 401,
      reason: 'no_matching_signature',
    });
    // Tampered body (even invalid JSON) is a 401, not a 400: nothing is parsed before verifying.
    const tampered = Buffer.from(rawBody.toString().replace('insufficient', 'sufficient'));
    expect(await receive({ rawBody: tampered, dedupe, headers: signedHeaders(rawBody) })).toMatchObject({
      status: 401,
    });
    expect(
      await receive({ rawBody: Buffer.from('{'), dedupe, headers: signedHeaders(rawBody) }),
    ).toMatchObject({
      status: 401,
    });
    // Nothing was recorded by the refused deliveries.
    expect(dedupe.size).toBe(0);
  });

  it('honours toleranceSeconds', async () => {
    const rawBody = body();
    const headers = signedHeaders(rawBody, SECRET, T - 60);
    expect(await receive({ rawBody, headers, toleranceSeconds: 30 })).toMatchObject({ status: 401 });
    expect(await receive({ rawBody, headers, toleranceSeconds: 90 })).toMatchObject({ status: 200 });
  });

  it('400 for a verified body that is not a valid event', async () => {
    for (const [rawBody, reason] of [
      [Buffer.from('not json'), 'invalid_json'],
      [body({ schema_version: '2' }), 'unsupported_schema_version'],
      [body({ event_id: 'evt_1' }), 'invalid_envelope'],
      [body({ data: { status: 'failed' } }), 'invalid_envelope'],
    ] as const) {
      expect(await receive({ rawBody })).toEqual({
        status: 400,
        duplicate: false,
        reason,
        detail: expect.any(String),
      });
    }
  });

  it('200 without an event for an unknown event type, not recorded', async () => {
    const dedupe = createMemoryDeduplicator();
    const rawBody = body({ event_type: 'payout.reversed', data: { anything: true } });
    expect(await receive({ rawBody, dedupe })).toEqual({
      status: 200,
      duplicate: false,
      reason: 'unknown_event_type',
      eventId: EVENT_ID,
      eventType: 'payout.reversed',
    });
    expect(dedupe.size).toBe(0);
  });

  it('finds the header in any case, in a fetch Headers, and refuses a repeated header', async () => {
    const rawBody = body();
    const signature = signedHeaders(rawBody)['service-signature']!;
    expect(await receive({ rawBody, headers: { 'Service-Signature': signature } })).toMatchObject({
      status: 200,
    });
    expect(
      await receive({ rawBody, headers: new Headers({ 'Service-Signature': signature }) }),
    ).toMatchObject({
      status: 200,
    });
    expect(await receive({ rawBody, headers: new Headers() })).toMatchObject({
      status: 401,
      reason: 'missing_header',
    });
    expect(await receive({ rawBody, headers: { 'service-signature': [signature] } })).toMatchObject({
      status: 200,
    });
    expect(
      await receive({ rawBody, headers: { 'service-signature': [signature, signature] } }),
    ).toMatchObject({
      status: 401,
      reason: 'malformed_header',
    });
  });

  it('ignores the unsigned x-event-id / x-event-type headers', async () => {
    const rawBody = body();
    const headers = { ...signedHeaders(rawBody), 'x-event-id': 'forged', 'x-event-type': 'webhook.ping' };
    expect(await receive({ rawBody, headers })).toMatchObject({
      status: 200,
      event: { event_id: EVENT_ID, event_type: 'transaction.failed' },
    });
  });

  it('rejects when the deduplicator fails (answer 5xx so the service retries)', async () => {
    const broken: EventDeduplicator = { firstSeen: () => Promise.reject(new Error('db down')) };
    await expect(receive({ rawBody: body(), dedupe: broken })).rejects.toThrow('db down');
  });

  it('round trip with signWebhookBody and a string body', async () => {
    const rawBody = body({
      event_type: 'webhook.ping',
      data: { endpoint_id: 'whe_01', message: 'Ping from the operator' },
    });
    const result = await receiveWebhook({
      headers: { 'service-signature': signWebhookBody(['whsec_other', SECRET], rawBody, T) },
      rawBody: rawBody.toString('utf8'),
      secrets: SECRET,
      now: NOW,
    });
    expect(result).toMatchObject({
      status: 200,
      event: { event_type: 'webhook.ping', data: { endpoint_id: 'whe_01' } },
    });
  });
});
