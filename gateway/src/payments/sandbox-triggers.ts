import { TRANSACTION_EVENT_TYPES, type TransactionEventType } from '@qr-payout/platform/vocabulary';
import { SANDBOX_TEST_PAYER, SANDBOX_TEST_QRS } from '../docs/sandbox-test-qrs';
import type { PayerInput } from './execute-instruction';

// What each sandbox trigger pays (docs/api/sandbox.md "Triggers"): a test QR of the catalogue
// whose amount makes the sandbox partner answer with that outcome (docs/partner-protocol.md
// "Sandbox outcomes"), paid by the catalogue's test payer. Both come from the catalogue, so a
// trigger is exactly what an integrator gets by paying that code by hand.

/** The test QR (docs/sandbox-test-qrs.md "The codes") whose payment ends in each event. */
export const SANDBOX_TRIGGER_QR_IDS: Readonly<Record<TransactionEventType, string>> = {
  // "anything else": settled after about 150 ms, inside the pay's wait.
  'transaction.completed': 'br-static-amount',
  // …51: refused by the partner at once (AC03).
  'transaction.failed': 'br-outcome-51',
};

export interface SandboxTriggerPayment {
  qrString: string;
  payer: PayerInput;
}

/**
 * The QR and payer a trigger of each event pays (a trigger makes every transaction event type of the
 * platform vocabulary), looked up in the catalogue once: the route builds them when it is registered,
 * so a catalogue without the code fails the start, not a request.
 */
export function sandboxTriggerPayments(): Readonly<Record<TransactionEventType, SandboxTriggerPayment>> {
  const payer: PayerInput = {
    name: SANDBOX_TEST_PAYER.payer_name,
    account: SANDBOX_TEST_PAYER.payer_account,
    taxId: SANDBOX_TEST_PAYER.payer_tax_id,
    country: SANDBOX_TEST_PAYER.payer_country,
    idType: SANDBOX_TEST_PAYER.payer_id_type,
  };
  const paymentOf = (event: TransactionEventType): [TransactionEventType, SandboxTriggerPayment] => {
    const id = SANDBOX_TRIGGER_QR_IDS[event];
    const qr = SANDBOX_TEST_QRS.find((entry) => entry.id === id);
    if (!qr?.qr_string) throw new Error(`sandbox test QR ${id} has no QR string`);
    return [event, { qrString: qr.qr_string, payer }];
  };
  return Object.fromEntries(TRANSACTION_EVENT_TYPES.map(paymentOf)) as Record<
    TransactionEventType,
    SandboxTriggerPayment
  >;
}
