import { parseWebhookEvent } from './event';

const EVENT_ID = '0b7a1f5e-8c2d-4e3f-9a1b-2c3d4e5f6a7b';

function completedEvent(over: Record<string, unknown> = {}) {
  return {
    schema_version: '1',
    event_id: EVENT_ID,
    event_type: 'transaction.completed',
    occurred_at: '2025-06-01T12:00:00.123Z',
    data: {
      transaction_id: 'txn_01JD0000000000000000000001',
      instruction_id: 'ins_01JD0000000000000000000001',
      status: 'completed',
      result: { reference: 'E2E0001', settledAt: '2025-06-01T12:00:00.100Z' },
      error: null,
    },
    ...over,
  };
}

const failedData = {
  transaction_id: 'txn_01JD0000000000000000000002',
  instruction_id: 'ins_01JD0000000000000000000002',
  status: 'failed',
  result: null,
  error: { reason: 'account closed', code: 'AC04', partnerStatus: 'RJCT' },
};

const parse = (value: unknown) => parseWebhookEvent(Buffer.from(JSON.stringify(value)));

describe('parseWebhookEvent', () => {
  it('parses transaction.completed with its result', () => {
    const result = parse(completedEvent());
    expect(result).toEqual({ ok: true, event: completedEvent() });
    if (result.ok && result.event.event_type === 'transaction.completed') {
      // Typed: result is non-null on a completed event.
      expect(result.event.data.result.reference).toBe('E2E0001');
    }
  });

  it('parses transaction.failed with its error (partnerStatus may be empty), and a missing result as null', () => {
    expect(parse(completedEvent({ event_type: 'transaction.failed', data: failedData }))).toMatchObject({
      ok: true,
      event: { event_type: 'transaction.failed', data: failedData },
    });
    const { result: _omitted, ...withoutResult } = failedData;
    const noPartner = { ...withoutResult, error: { ...failedData.error, partnerStatus: '' } };
    expect(parse(completedEvent({ event_type: 'transaction.failed', data: noPartner }))).toMatchObject({
      ok: true,
      event: { data: { result: null, error: { partnerStatus: '' } } },
    });
  });

  it('accepts a null settledAt (the presenter allows it)', () => {
    const event = completedEvent();
    const data = { ...event.data, result: { reference: 'E2E0001', settledAt: null } };
    expect(parse({ ...event, data })).toMatchObject({
      ok: true,
      event: { data: { result: { settledAt: null } } },
    });
  });

  it('parses webhook.ping', () => {
    const ping = completedEvent({
      event_type: 'webhook.ping',
      data: { endpoint_id: 'whe_1', message: 'test' },
    });
    expect(parse(ping)).toEqual({ ok: true, event: ping });
  });

  it('keeps fields it does not know (additive changes)', () => {
    const event = completedEvent({ tenant_hint: 'x' });
    const result = parse({ ...event, data: { ...event.data, rail: 'pix' } });
    expect(result).toMatchObject({ ok: true, event: { tenant_hint: 'x', data: { rail: 'pix' } } });
  });

  it('reports an unknown event type with its id, so it can be acknowledged', () => {
    expect(parse(completedEvent({ event_type: 'transaction.refunded', data: {} }))).toEqual({
      ok: false,
      reason: 'unknown_event_type',
      detail: expect.any(String),
      eventId: EVENT_ID,
      eventType: 'transaction.refunded',
    });
  });

  it('refuses bodies that are not JSON', () => {
    for (const body of ['', 'not json', '{"schema_version":"1"', '\u00ff']) {
      expect(parseWebhookEvent(body)).toMatchObject({ ok: false, reason: 'invalid_json' });
    }
  });

  it('refuses another schema version', () => {
    for (const v of ['2', 1, undefined]) {
      expect(parse(completedEvent({ schema_version: v }))).toMatchObject({
        ok: false,
        reason: 'unsupported_schema_version',
      });
    }
  });

  it('refuses envelopes and data of the wrong shape', () => {
    const data = completedEvent().data;
    const cases: unknown[] = [
      null,
      [],
      'string',
      42,
      completedEvent({ event_id: 'not-a-uuid' }),
      completedEvent({ event_id: undefined }),
      completedEvent({ event_type: 7 }),
      completedEvent({ occurred_at: '2025-06-01 12:00:00' }),
      completedEvent({ occurred_at: '2025-06-01T12:00:00+02:00' }),
      completedEvent({ occurred_at: '2025-13-45T12:00:00.000Z' }),
      completedEvent({ data: null }),
      completedEvent({ data: [] }),
      completedEvent({ data: { ...data, transaction_id: '' } }),
      completedEvent({ data: { ...data, instruction_id: 5 } }),
      completedEvent({ data: { ...data, status: 'failed' } }),
      completedEvent({ data: { ...data, result: null } }),
      completedEvent({ data: { ...data, result: { reference: 'x' } } }),
      completedEvent({ data: { ...data, result: { reference: 7, settledAt: null } } }),
      completedEvent({ data: { ...data, error: failedData.error } }),
      completedEvent({ event_type: 'transaction.failed', data: { ...failedData, error: null } }),
      completedEvent({ event_type: 'transaction.failed', data: { ...failedData, result: data.result } }),
      completedEvent({
        event_type: 'transaction.failed',
        data: { ...failedData, error: { ...failedData.error, code: null } },
      }),
      completedEvent({ event_type: 'webhook.ping', data: { message: 'no endpoint' } }),
    ];
    for (const value of cases) {
      expect([value, parse(value)]).toEqual([
        value,
        expect.objectContaining({ ok: false, reason: 'invalid_envelope' }),
      ]);
    }
  });
});
