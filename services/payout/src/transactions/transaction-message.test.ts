import { timestampDate } from '@bufbuild/protobuf/wkt';
import { transactionStatuses } from '@qr-payout/platform/vocabulary';
import { STORED_AT, storedTransaction } from '../../test/support/stored-transaction';
import type { StoredTransaction } from './transaction';
import { toTransactionMessage } from './transaction-message';

const created = STORED_AT;
const processing = new Date(STORED_AT.getTime() + 250);
const settled = new Date(STORED_AT.getTime() + 3_500);

const completed = { resultReference: 'E1', resultSettledAt: settled };
const failed = { errorCode: 'AC03', errorReason: 'Invalid creditor account', errorPartnerStatus: 'RJCT' };

/** The history as "state@ISO time" strings, the easiest form to compare. */
function historyOf(row: StoredTransaction): string[] {
  return toTransactionMessage(row).statusHistory.map(
    (change) => `${transactionStatuses.nameOf(change.status)}@${timestampDate(change.at!).toISOString()}`,
  );
}

describe('the state history (docs/api/resources.md "State history")', () => {
  it('is the creation alone while pending', () => {
    expect(historyOf(storedTransaction({}))).toEqual([`pending@${created.toISOString()}`]);
  });

  it('adds processing at the time it was entered, not at a later change', () => {
    const row = storedTransaction({ status: 'processing', processingAt: processing, updatedAt: settled });
    expect(historyOf(row)).toEqual([
      `pending@${created.toISOString()}`,
      `processing@${processing.toISOString()}`,
    ]);
  });

  it('ends with the outcome at the settling update', () => {
    expect(
      historyOf(
        storedTransaction({
          status: 'completed',
          processingAt: processing,
          updatedAt: settled,
          ...completed,
        }),
      ),
    ).toEqual([
      `pending@${created.toISOString()}`,
      `processing@${processing.toISOString()}`,
      `completed@${settled.toISOString()}`,
    ]);
  });

  it('shows no processing for a transaction that settled straight from pending', () => {
    expect(historyOf(storedTransaction({ status: 'failed', updatedAt: settled, ...failed }))).toEqual([
      `pending@${created.toISOString()}`,
      `failed@${settled.toISOString()}`,
    ]);
  });

  it('still ends with processing when its time was not recorded (a row older than migration 0008)', () => {
    expect(historyOf(storedTransaction({ status: 'processing', updatedAt: settled }))).toEqual([
      `pending@${created.toISOString()}`,
      `processing@${settled.toISOString()}`,
    ]);
  });
});
