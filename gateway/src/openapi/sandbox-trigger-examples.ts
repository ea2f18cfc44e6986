import { parseEmv } from '@qr-payout/decoder/emv/tlv';
import { REASON_TEXT, type ReasonCode } from '@qr-payout/partner-sim/protocol';
import type { TransactionEventType } from '@qr-payout/platform/vocabulary';
import { SANDBOX_TEST_QRS } from '../docs/sandbox-test-qrs';
import { SANDBOX_TRIGGER_QR_IDS } from '../payments/sandbox-triggers';
import { EXAMPLE_FAILED_TRANSACTION, EXAMPLE_TRANSACTION } from './examples';

// The 201 examples of POST /v1/sandbox/triggers (docs/api/sandbox.md "Triggers"): the transaction
// the sandbox answers, made from what makes that answer, so the example cannot drift from it: the
// test QR the trigger pays (its amount read with the decoder's EMV reader), that code's expected
// outcome in the catalogue, and the partner simulator's words for the reason code. Ids, times,
// creditor and reference are the document's example ones; a trigger pays without a wallet currency.

/** EMV data object 54, the transaction amount (docs/qr-schemes.md "EMVCo TLV"). */
const EMV_AMOUNT = 54;

/** The transaction a trigger of `event` answers, as an example. */
export function sandboxTriggerExampleTransaction(event: TransactionEventType) {
  const id = SANDBOX_TRIGGER_QR_IDS[event];
  const qr = SANDBOX_TEST_QRS.find((entry) => entry.id === id);
  if (!qr?.qr_string) throw new Error(`sandbox test QR ${id} has no QR string`);
  const { transaction_status: status = 'completed', error_code: code } = qr.expected;
  const outcome =
    code === undefined
      ? { result: EXAMPLE_TRANSACTION.result, error: null }
      : { result: null, error: { reason: REASON_TEXT[code as ReasonCode], code, partnerStatus: 'RJCT' } };
  return {
    ...EXAMPLE_TRANSACTION,
    status,
    amount: Number(parseEmv(qr.qr_string).get(EMV_AMOUNT)),
    ...outcome,
    walletAmount: null,
    walletCurrency: null,
    quote: null,
    // The failing trigger's amount is refused at submission, the completing one settled within the
    // pay's wait (the test holds the simulator to both): neither is recorded as processing.
    statusHistory:
      code === undefined ? EXAMPLE_TRANSACTION.statusHistory : EXAMPLE_FAILED_TRANSACTION.statusHistory,
  };
}
