// Property: whatever partner statuses arrive for a transaction, in whatever order and however
// concurrently (callbacks, polls and submission answers all end in the same guarded settlement),
// it settles once, to a terminal outcome that arrived, with exactly one outbox event; transient
// statuses never undo it (docs/architecture.md "Transactions").
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { newId } from '@qr-payout/platform/ids';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import fc from 'fast-check';
import {
  newInstruction,
  outboxEvents,
  partnerCallback,
  startWorld,
  tenant,
  type World,
} from './execute-harness';

type Status = 'PDNG' | 'ACSP' | 'ACSC' | 'RJCT';

const statusArb = fc.constantFrom<Status>('PDNG', 'ACSP', 'ACSC', 'RJCT');
const TERMINAL: Record<string, TransactionStatus> = {
  ACSC: TransactionStatus.COMPLETED,
  RJCT: TransactionStatus.FAILED,
};

// 25 and 15 runs, each a transaction settled in PostgreSQL: well under a second each on a quiet
// machine, but jest's default 5 s per test is too little for all of them on a busy CI machine.
jest.setTimeout(60_000);

describe('payout transaction state machine (property)', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  // A pending transaction that neither execute nor the worker touches (no next_poll_at).
  async function pendingTransaction(tenantId: string): Promise<string> {
    const instructionId = await newInstruction(world, tenantId, 4000n);
    const transactionId = newId('txn');
    await world.admin.query(
      `INSERT INTO "${world.schema}".transactions (id, tenant_id, instruction_id, scheme_id, rail, status,
         amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account, payer_tax_id)
       VALUES ($1, $2, $3, 'BR.PIX', 'pix', 'pending', 'BRL', 4000, 'BRL', 4000, 'Ana Souza', '1', '12345678909')`,
      [transactionId, tenantId, instructionId],
    );
    return transactionId;
  }

  function callback(transactionId: string, status: Status) {
    return world.client.applyPartnerCallback(
      partnerCallback('pix', {
        transactionId,
        partnerPayoutId: 'pp_property',
        status,
        ...(status === 'RJCT' ? { reasonCode: 'AC03' } : {}),
        ...(status === 'ACSC' ? { reference: 'E99999999202611231400abcDEF12345' } : {}),
      }),
    );
  }

  it('in sequence: the first terminal status wins, once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(statusArb, { minLength: 1, maxLength: 6 }), async (statuses) => {
        const tenantId = tenant();
        const transactionId = await pendingTransaction(tenantId);
        for (const status of statuses) await callback(transactionId, status);
        const { transaction } = await world.client.getTransaction({ tenantId, transactionId });
        const firstTerminal = statuses.find((s) => s in TERMINAL);
        const events = await outboxEvents(world, transactionId);
        if (firstTerminal === undefined) {
          expect(transaction?.status).toBe(TransactionStatus.PROCESSING);
          expect(events).toEqual([]);
        } else {
          expect(transaction?.status).toBe(TERMINAL[firstTerminal]);
          expect(events).toEqual([firstTerminal === 'ACSC' ? 'transaction.completed' : 'transaction.failed']);
        }
        // The state history (docs/api/resources.md "State history"): each state entered once, in
        // order, `processing` only when a transient status came before the outcome, times never
        // going back, the first at the creation and the last at the settling update.
        const beforeOutcome =
          firstTerminal === undefined ? statuses : statuses.slice(0, statuses.indexOf(firstTerminal));
        const visited = [
          TransactionStatus.PENDING,
          ...(beforeOutcome.length > 0 ? [TransactionStatus.PROCESSING] : []),
          ...(firstTerminal === undefined ? [] : [TERMINAL[firstTerminal]]),
        ];
        const history = transaction!.statusHistory;
        expect(history.map((change) => change.status)).toEqual(visited);
        const times = history.map((change) => timestampDate(change.at!).getTime());
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(times[0]).toBe(timestampDate(transaction!.createdAt!).getTime());
        if (firstTerminal !== undefined)
          expect(times.at(-1)).toBe(timestampDate(transaction!.updatedAt!).getTime());
      }),
      { numRuns: 25 },
    );
  });

  it('concurrently: one terminal outcome among those sent, one event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(statusArb, { minLength: 2, maxLength: 8 }), async (statuses) => {
        const tenantId = tenant();
        const transactionId = await pendingTransaction(tenantId);
        await Promise.all(statuses.map((status) => callback(transactionId, status)));
        const { transaction } = await world.client.getTransaction({ tenantId, transactionId });
        const events = await outboxEvents(world, transactionId);
        const terminals = new Set(statuses.filter((s) => s in TERMINAL).map((s) => TERMINAL[s]));
        if (terminals.size === 0) {
          expect(events).toEqual([]);
        } else {
          expect(terminals.has(transaction!.status)).toBe(true);
          expect(events).toHaveLength(1);
        }
      }),
      { numRuns: 15 },
    );
  });
});
