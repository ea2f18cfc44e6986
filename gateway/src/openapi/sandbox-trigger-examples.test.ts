import { parseEmv, tlvGet } from '@qr-payout/decoder/emv/tlv';
import { REASON_TEXT } from '@qr-payout/partner-sim/protocol';
import { TRANSACTION_EVENT_TYPES } from '@qr-payout/platform/vocabulary';
import { outcomeFor } from '../../../partner-sim/src/payouts/outcome';
import { SANDBOX_TEST_QRS } from '../docs/sandbox-test-qrs';
import { SANDBOX_TRIGGER_QR_IDS } from '../payments/sandbox-triggers';
import { sandboxTriggerExampleTransaction } from './sandbox-trigger-examples';

// The examples of POST /v1/sandbox/triggers are what the sandbox answers (docs/api/sandbox.md
// "Triggers"): the QR the trigger pays, and the outcome the partner simulator picks for its amount,
// in the simulator's words. test-e2e/sandbox-triggers.e2e.test.ts compares them with real answers.

function paidQr(event: (typeof TRANSACTION_EVENT_TYPES)[number]) {
  const qr = SANDBOX_TEST_QRS.find((entry) => entry.id === SANDBOX_TRIGGER_QR_IDS[event]);
  return parseEmv(qr?.qr_string ?? '');
}

describe('POST /v1/sandbox/triggers examples', () => {
  it.each(TRANSACTION_EVENT_TYPES)('%s: the amount and creditor of the QR it pays, without FX', (event) => {
    const example = sandboxTriggerExampleTransaction(event);
    const qr = paidQr(event);
    expect(example.amount).toBe(Number(qr.get(54)));
    expect(example.creditor).toEqual({ name: qr.get(59), account: tlvGet(qr.template(26)!, 1) });
    expect({ walletAmount: example.walletAmount, quote: example.quote }).toEqual({
      walletAmount: null,
      quote: null,
    });
  });

  it("transaction.failed: the simulator's refusal of that amount, in its words", () => {
    const example = sandboxTriggerExampleTransaction('transaction.failed');
    const amountMinor = String(Math.round(example.amount * 100));
    const outcome = outcomeFor(amountMinor);
    expect(outcome).toEqual({ kind: 'rejected_at_once', reasonCode: 'AC03' });
    expect(example.statusHistory.map((change) => change.status)).toEqual(['pending', 'failed']);
    expect(example).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'AC03', reason: REASON_TEXT.AC03, partnerStatus: 'RJCT' },
    });
    expect(example.error?.reason).toBe('invalid creditor account number');
  });

  it('transaction.completed: settled by the simulator, with a result and no error', () => {
    const example = sandboxTriggerExampleTransaction('transaction.completed');
    expect(outcomeFor(String(Math.round(example.amount * 100)))).toMatchObject({
      kind: 'settles_later',
      status: 'ACSC',
      delay: 'normal',
    });
    expect(example.statusHistory.map((change) => change.status)).toEqual(['pending', 'completed']);
    expect(example).toMatchObject({ status: 'completed', error: null });
    expect(example.result?.reference).toEqual(expect.any(String));
  });
});
