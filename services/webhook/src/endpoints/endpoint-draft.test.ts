import { readErrorDetail } from '@qr-payout/platform/errors';
import { RetryStrategy } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { MAX_CUSTOM_HEADERS } from './custom-headers';
import { checkEndpointInput, subscribesTo } from './endpoint-draft';

const tooManyHeaders = Array.from({ length: MAX_CUSTOM_HEADERS + 1 }, (_, index) => ({
  name: `X-Header-${index}`,
  value: 'v',
}));

describe('checkEndpointInput', () => {
  const valid = {
    tenantId: 'ten_01JD0000000000000000000000',
    url: 'https://hooks.example.com/payouts',
    eventTypes: ['transaction.completed'],
    headers: [{ name: 'Authorization', value: 'Bearer t' }],
    retryStrategy: RetryStrategy.UNSPECIFIED,
  };
  const strict = { allowPrivateTargets: false };

  function refusal(input: Partial<typeof valid>) {
    try {
      checkEndpointInput({ ...valid, ...input }, strict);
    } catch (err) {
      const detail = readErrorDetail(err);
      return detail && { tag: detail.tag, field: detail.field, message: detail.message };
    }
    throw new Error('expected a refusal');
  }

  it('returns a normalized draft', () => {
    expect(checkEndpointInput(valid, strict)).toEqual({
      tenantId: valid.tenantId,
      url: valid.url,
      eventTypes: ['transaction.completed'],
      headers: [{ name: 'Authorization', value: 'Bearer t' }],
      retryStrategy: 'standard',
    });
  });

  it.each([
    [[], ['*']],
    [['*'], ['*']],
    [
      ['transaction.failed', 'transaction.completed'],
      ['transaction.failed', 'transaction.completed'],
    ],
    [['transaction.failed', 'transaction.failed'], ['transaction.failed']],
  ])('subscribes %j as %j', (eventTypes, expected) => {
    expect(checkEndpointInput({ ...valid, eventTypes }, strict).eventTypes).toEqual(expected);
  });

  it.each([
    [RetryStrategy.STANDARD, 'standard'],
    [RetryStrategy.EXTENDED, 'extended'],
  ])('maps retry strategy %d to %s', (retryStrategy, name) => {
    expect(checkEndpointInput({ ...valid, retryStrategy }, strict).retryStrategy).toBe(name);
  });

  it.each([
    [{ tenantId: '' }, 'tenant_id', 'tenant_id must be a tenant id (ten_...)'],
    [{ tenantId: 'acme' }, 'tenant_id', 'tenant_id must be a tenant id (ten_...)'],
    [{ url: 'http://hooks.example.com' }, 'url', 'url must use https'],
    [{ url: 'https://127.0.0.1/x' }, 'url', 'url must not point at a loopback address'],
    [
      { eventTypes: ['payment.created'] },
      'event_types',
      'event_types must be among transaction.completed, transaction.failed or "*"',
    ],
    [
      { eventTypes: ['*', 'transaction.failed'] },
      'event_types',
      'event_types must be ["*"] or a list of event types, not both',
    ],
    [
      { eventTypes: ['Transaction.Completed'] },
      'event_types',
      'event_types must be among transaction.completed, transaction.failed or "*"',
    ],
    [
      { headers: [{ name: 'Host', value: 'evil' }] },
      'headers[0].name',
      'header Host is reserved and cannot be set',
    ],
    [{ headers: tooManyHeaders }, 'headers', 'at most 20 custom headers are allowed'],
    [{ retryStrategy: 7 as RetryStrategy }, 'retry_strategy', 'retry_strategy must be standard or extended'],
  ])('refuses %j', (input, field, message) => {
    expect(refusal(input)).toEqual({ tag: 'ValidationError', field, message });
  });
});

describe('subscribesTo', () => {
  it('matches "*" and the listed types only', () => {
    expect(subscribesTo(['*'], 'transaction.completed')).toBe(true);
    expect(subscribesTo(['*'], 'webhook.future')).toBe(true);
    expect(subscribesTo(['transaction.failed'], 'transaction.failed')).toBe(true);
    expect(subscribesTo(['transaction.failed'], 'transaction.completed')).toBe(false);
  });
});
