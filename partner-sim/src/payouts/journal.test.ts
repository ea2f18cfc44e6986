import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { openPayoutJournal } from './journal';
import type { Payout } from './payout';
import { createPayoutStore, newPayoutId } from './store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'partner-sim-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function payout(key: string, amountMinor = '1234'): Payout {
  return {
    id: newPayoutId(),
    idempotencyKey: key,
    fingerprint: 'f'.repeat(64),
    rail: 'pix',
    amount: { currency: 'BRL', amount_minor: amountMinor },
    callbackUrl: 'http://127.0.0.1:1/cb',
    references: { txid: 'abc' },
    debtor: {
      name: 'Juan Pérez',
      account: '1',
      residency: 'non_resident',
      document: { type: 'passport', number: 'AA1234567', issuing_country: 'AR' },
    },
    status: 'ACSP',
    reasonCode: null,
    reference: 'E99999999202611231405Ab3dE5fG7hJ',
    createdAt: new Date('2026-11-23T12:00:00.000Z'),
    settledAt: null,
  };
}

describe('payout journal', () => {
  it('a store reopened on the file holds every payout as its last change left it, oldest first', () => {
    const file = path.join(dir, 'nested', 'payouts.jsonl');
    const first = createPayoutStore({ journal: openPayoutJournal(file) });
    const a = payout('txn_a');
    const b = payout('txn_b');
    first.insert(a);
    first.insert(b);
    first.update(a.id, { status: 'ACSC', reasonCode: null, settledAt: new Date('2026-11-23T12:00:01.000Z') });

    const again = createPayoutStore({ journal: openPayoutJournal(file) });
    expect(again.all().map((p) => p.id)).toEqual([a.id, b.id]);
    expect(again.byIdempotencyKey('txn_a')).toEqual({
      ...a,
      status: 'ACSC',
      settledAt: new Date('2026-11-23T12:00:01.000Z'),
    });
    expect(again.byId(b.id)).toEqual(b);
  });

  it('skips a line torn by a kill in the middle of a write', () => {
    const file = path.join(dir, 'payouts.jsonl');
    const store = createPayoutStore({ journal: openPayoutJournal(file) });
    const a = payout('txn_a');
    store.insert(a);
    appendFileSync(file, '{"id":"pp_torn","idempo');
    expect(createPayoutStore({ journal: openPayoutJournal(file) }).all()).toEqual([a]);
  });

  it('a payout recorded after a torn line survives the next restart', () => {
    const file = path.join(dir, 'payouts.jsonl');
    const a = payout('txn_a');
    createPayoutStore({ journal: openPayoutJournal(file) }).insert(a);
    appendFileSync(file, '{"id":"pp_torn","idempo');
    const b = payout('txn_b');
    createPayoutStore({ journal: openPayoutJournal(file) }).insert(b);
    expect(createPayoutStore({ journal: openPayoutJournal(file) }).all()).toEqual([a, b]);
  });

  it('compacts to the live payouts once the file holds twice their bound', () => {
    const file = path.join(dir, 'payouts.jsonl');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), (count) => {
        rmSync(file, { force: true });
        const journal = openPayoutJournal(file);
        const store = createPayoutStore({ maxPayouts: 5, journal });
        const inserted = Array.from({ length: count }, (_, i) => payout(`txn_${i}`));
        for (const p of inserted) {
          store.insert(p);
          store.update(p.id, { status: 'RJCT', reasonCode: 'AM04', settledAt: null });
        }
        const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
        expect(lines).toBeLessThanOrEqual(2 * 5 + 1);
        journal.close();
        const reopened = createPayoutStore({ maxPayouts: 5, journal: openPayoutJournal(file) });
        expect(reopened.all().map((p) => p.idempotencyKey)).toEqual(
          inserted.slice(-5).map((p) => p.idempotencyKey),
        );
        expect(reopened.all().every((p) => p.status === 'RJCT')).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
