import { migrate } from '@qr-payout/platform/db';
import {
  DELIVERY_STATUSES,
  PING_EVENT_TYPE,
  RETRY_STRATEGIES,
  TRANSACTION_EVENT_TYPES,
} from '@qr-payout/platform/vocabulary';
import { checkedValueLists, freshSchema } from '@qr-payout/test-kit/schema';
import { MIGRATIONS_DIR } from '../src/deps';

// The SQL CHECKs repeat the vocabulary's lists (services/platform/src/vocabulary.ts); a list
// changed on one side only fails here.
describe('webhook SQL CHECKs match the vocabulary (real PostgreSQL)', () => {
  it('delivery statuses, retry strategies and event types', async () => {
    const schema = freshSchema('webhook_vocab');
    try {
      const pool = schema.pool();
      await migrate(pool, { schema: schema.name, dir: MIGRATIONS_DIR });
      const lists = await checkedValueLists(pool, schema.name);
      expect(lists.get('deliveries.status')).toEqual([...DELIVERY_STATUSES]);
      expect(lists.get('deliveries.retry_strategy')).toEqual([...RETRY_STRATEGIES]);
      expect(lists.get('endpoints.retry_strategy')).toEqual([...RETRY_STRATEGIES]);
      expect(lists.get('deliveries.event_type')).toEqual([...TRANSACTION_EVENT_TYPES, PING_EVENT_TYPE]);
    } finally {
      await schema.drop();
    }
  });
});
