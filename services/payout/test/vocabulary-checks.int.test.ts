import { migrate } from '@qr-payout/platform/db';
import { TRANSACTION_EVENT_TYPES, TRANSACTION_STATUSES } from '@qr-payout/platform/vocabulary';
import { checkedValueLists, freshSchema } from '@qr-payout/test-kit/schema';
import { MIGRATIONS_DIR } from '../src/deps';

// The SQL CHECKs repeat the vocabulary's lists (services/platform/src/vocabulary.ts); a list
// changed on one side only fails here.
describe('payout SQL CHECKs match the vocabulary (real PostgreSQL)', () => {
  it('transactions.status and outbox_events.event_type', async () => {
    const schema = freshSchema('payout_vocab');
    try {
      const pool = schema.pool();
      await migrate(pool, { schema: schema.name, dir: MIGRATIONS_DIR });
      const lists = await checkedValueLists(pool, schema.name);
      expect(lists.get('transactions.status')).toEqual([...TRANSACTION_STATUSES]);
      expect(lists.get('outbox_events.event_type')).toEqual([...TRANSACTION_EVENT_TYPES]);
    } finally {
      await schema.drop();
    }
  });
});
