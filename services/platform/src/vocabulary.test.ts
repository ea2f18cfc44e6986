import type { DescEnum } from '@bufbuild/protobuf';
import { TransactionStatusSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { DeliveryStatusSchema, RetryStrategySchema } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { WEBHOOK_EVENT_TYPES as RECEIVER_EVENT_TYPES } from '@qr-payout/webhook-receiver';
import {
  DELIVERY_STATUSES,
  deliveryStatuses,
  PING_EVENT_TYPE,
  RETRY_STRATEGIES,
  retryStrategies,
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_STATUSES,
  transactionStatuses,
} from './vocabulary';

/** The enum's values other than UNSPECIFIED, as lower-case names without the prefix, in order. */
function enumNames(schema: DescEnum): string[] {
  return schema.values
    .filter((value) => value.number !== 0)
    .map((value) => value.name.slice(schema.sharedPrefix?.length ?? 0).toLowerCase());
}

describe('vocabulary: each list is its proto enum', () => {
  it.each([
    ['transaction statuses', TransactionStatusSchema, TRANSACTION_STATUSES, transactionStatuses],
    ['delivery statuses', DeliveryStatusSchema, DELIVERY_STATUSES, deliveryStatuses],
    ['retry strategies', RetryStrategySchema, RETRY_STRATEGIES, retryStrategies],
  ] as const)('%s', (_name, schema, names, vocabulary) => {
    expect([...names]).toEqual(enumNames(schema));
    for (const name of names) expect(name).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
    for (const name of names) {
      const value = vocabulary.toProto(name as never);
      expect(value).toBeGreaterThan(0);
      expect(vocabulary.nameOf(value)).toBe(name);
    }
    expect(vocabulary.nameOf(0 as never)).toBeUndefined();
    expect(vocabulary.isName('nope')).toBe(false);
  });

  it('keeps the names the public API has always used', () => {
    // A renamed enum value would rename a public state: this pins today's names.
    expect([...TRANSACTION_STATUSES]).toEqual(
      expect.arrayContaining(['pending', 'processing', 'completed', 'failed']),
    );
    expect([...DELIVERY_STATUSES]).toEqual(
      expect.arrayContaining(['pending', 'delivering', 'delivered', 'failed', 'exhausted']),
    );
    expect([...RETRY_STRATEGIES]).toEqual(expect.arrayContaining(['standard', 'extended']));
  });

  it('the published webhook receiver knows every webhook event type', () => {
    // @qr-payout/webhook-receiver stays installable alone, so it keeps its own copy; this holds it.
    expect([...RECEIVER_EVENT_TYPES]).toEqual([...TRANSACTION_EVENT_TYPES, PING_EVENT_TYPE]);
  });
});
