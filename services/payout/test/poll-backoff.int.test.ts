// The polling worker's backoff grows while a payout stays in flight
// (docs/architecture.md "Partner callbacks"; README "Config": POLL_BACKOFF_BASE_MS doubled per
// attempt up to the max): an in-flight answer to a poll must keep the attempt count, which only a
// new submission resets.
import { createExecutionStore } from '../src/execution/store';
import { seedTransaction } from './fixtures';
import { migratedSchema } from './support/outbox';

jest.setTimeout(60_000);

describe('poll attempts of an in-flight payout', () => {
  let schema: Awaited<ReturnType<typeof migratedSchema>>;

  beforeAll(async () => {
    schema = await migratedSchema();
  });

  afterAll(async () => {
    await schema?.drop();
  });

  async function pollAttempts(id: string): Promise<number> {
    const { rows } = await schema.pool.query<{ poll_attempts: number }>(
      'SELECT poll_attempts FROM transactions WHERE id = $1',
      [id],
    );
    return rows[0]!.poll_attempts;
  }

  async function makeDue(id: string): Promise<void> {
    await schema.pool.query(
      `UPDATE transactions SET next_poll_at = now() - interval '1 second', lease_until = NULL WHERE id = $1`,
      [id],
    );
  }

  it('counts every poll answered in flight; a submission starts the count again', async () => {
    const store = createExecutionStore(schema.pool);
    const { transactionId } = await seedTransaction(schema.pool, schema.schema, 'ten_backoff');

    // Claimed while pending (the worker resubmits it): the count goes up, the submission resets it.
    await makeDue(transactionId);
    expect((await store.claimDueTransactions(10, 30_000)).map((t) => t.pollAttempts)).toEqual([1]);
    await store.markProcessing(transactionId, 'pp_backoff', 1_000);
    expect(await pollAttempts(transactionId)).toBe(0);

    // Each poll the partner answers "still in process": the count keeps growing.
    for (const expected of [1, 2, 3]) {
      await makeDue(transactionId);
      const [claimed] = await store.claimDueTransactions(10, 30_000);
      expect(claimed).toMatchObject({ id: transactionId, status: 'processing', pollAttempts: expected });
      await store.markProcessing(transactionId, 'pp_backoff', 1_000 * 2 ** expected);
      expect(await pollAttempts(transactionId)).toBe(expected);
    }
  });
});
