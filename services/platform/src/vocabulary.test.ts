import type { DescEnum } from '@bufbuild/protobuf';
import { WEBHOOK_EVENT_TYPES as RECEIVER_EVENT_TYPES } from '@qr-payout/webhook-receiver';
import { namesOf } from './enum-names';
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

/** A proto enum as protoc-gen-es describes it: values in declaration order, numbers as declared. */
function enumSchema(sharedPrefix: string | undefined, values: Array<[string, number]>): DescEnum {
  return { sharedPrefix, values: values.map(([name, number]) => ({ name, number })) } as unknown as DescEnum;
}

describe('namesOf', () => {
  const COLOR = { UNSPECIFIED: 0, DARK_RED: 2, BLUE: 1 } as const;

  it('drops UNSPECIFIED and keeps the declaration order, not the numbers', () => {
    const schema = enumSchema('COLOR_', [
      ['COLOR_UNSPECIFIED', 0],
      ['COLOR_DARK_RED', 2],
      ['COLOR_BLUE', 1],
    ]);
    expect(namesOf(schema, COLOR)).toEqual(['dark_red', 'blue']);
  });

  it('lower-cases a name when the enum has no shared prefix', () => {
    expect(
      namesOf(
        enumSchema(undefined, [
          ['NONE', 0],
          ['BLUE', 1],
        ]),
        COLOR,
      ),
    ).toEqual(['blue']);
  });

  it('returns a frozen list, so no importer can change a vocabulary', () => {
    expect(Object.isFrozen(namesOf(enumSchema('COLOR_', [['COLOR_BLUE', 1]]), COLOR))).toBe(true);
  });
});

describe('the vocabularies', () => {
  it.each([
    ['transaction statuses', TRANSACTION_STATUSES, transactionStatuses],
    ['delivery statuses', DELIVERY_STATUSES, deliveryStatuses],
    ['retry strategies', RETRY_STRATEGIES, retryStrategies],
  ] as const)(
    '%s: lower-case snake case on the wire, each name its own enum value and back',
    (_name, names, vocabulary) => {
      for (const name of names) expect(name).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      const values = names.map((name) => vocabulary.toProto(name as never));
      for (const value of values) expect(value).toBeGreaterThan(0);
      expect(new Set(values).size).toBe(names.length);
      expect(values.map((value) => vocabulary.nameOf(value as never))).toEqual([...names]);
    },
  );

  it.each([
    ['transaction statuses', transactionStatuses],
    ['delivery statuses', deliveryStatuses],
    ['retry strategies', retryStrategies],
  ] as const)(
    '%s: UNSPECIFIED, a value of a newer build and an upper-case name are not names',
    (_name, vocabulary) => {
      expect(vocabulary.nameOf(0 as never)).toBeUndefined();
      expect(vocabulary.nameOf(99 as never)).toBeUndefined();
      expect(vocabulary.isName(String(vocabulary.names[0]).toUpperCase())).toBe(false);
      expect(vocabulary.isName('unspecified')).toBe(false);
    },
  );

  it('keeps the names the public API has always used, in lifecycle order', () => {
    // A renamed or reordered enum value would rename or reorder a public state: this pins today's.
    expect([...TRANSACTION_STATUSES]).toEqual(['pending', 'processing', 'completed', 'failed']);
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
