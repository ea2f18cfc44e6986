import type { Logger } from '@qr-payout/platform/log';
import { createCallbackSender } from './callbacks';
import type { Faults } from './faults';
import type { PayoutJournal } from './journal';
import { outcomeFor } from './outcome';
import type { Payout } from './payout';
import { isTerminal, type PayoutResource, type SubmitPayoutBody } from './protocol';
import { newRailReference } from './references';
import { createSettlementScheduler, type LaterOutcome } from './settlement';
import type { SimStats } from './stats';
import { createPayoutStore, fingerprintOf, newPayoutId, toResource } from './store';

// The simulated partner's payout desk: accepts submissions idempotently, settles them by the
// sandbox outcome of their amount and calls back when they reach a terminal state.

export type PayoutServiceOptions = {
  now: () => Date;
  logger: Logger;
  faults: Faults;
  stats: SimStats;
  settleMs: number;
  slowSettleMs: number;
  callbackSecret: string;
  callbackAttempts: number;
  callbackRetryBaseMs: number;
  callbackTimeoutMs: number;
  maxPayouts?: number;
  /** Keeps payouts across restarts (PARTNER_SIM_STATE_FILE); without it they live in memory. */
  journal?: PayoutJournal;
  /**
   * Called once a payout settles `ACSC`, after its state is stored: the receiving side of the rail
   * learns it was paid (the simulator's own dynamic Pix charge becomes CONCLUIDA).
   */
  onCompleted?: (payout: Payout) => void;
};

export type SubmitResult =
  | { kind: 'created'; payout: PayoutResource }
  /** Same key, same body: the payout the first submission created. */
  | { kind: 'replayed'; payout: PayoutResource }
  /** Same key, another body: nothing is created. */
  | { kind: 'conflict'; payoutId: string };

export type PayoutService = {
  submit(idempotencyKey: string, body: SubmitPayoutBody): SubmitResult;
  byId(id: string): PayoutResource | undefined;
  byIdempotencyKey(key: string): PayoutResource | undefined;
  /** Cancels pending settlements and callbacks. */
  close(): Promise<void>;
};

export function createPayoutService(opts: PayoutServiceOptions): PayoutService {
  const store = createPayoutStore({ maxPayouts: opts.maxPayouts, journal: opts.journal });
  const callbacks = createCallbackSender({
    secret: opts.callbackSecret,
    attempts: opts.callbackAttempts,
    retryBaseMs: opts.callbackRetryBaseMs,
    timeoutMs: opts.callbackTimeoutMs,
    now: opts.now,
    logger: opts.logger,
    faults: opts.faults,
    stats: opts.stats,
  });

  function completed(payout: Payout): void {
    try {
      opts.onCompleted?.(payout);
    } catch (err) {
      // The payout is settled whatever the hook does; a failing hook must not stop its callback.
      opts.logger.error({ err, payout_id: payout.id }, 'partner-sim completion hook failed');
    }
  }

  function notify(payout: Payout): void {
    if (payout.callbackUrl !== undefined) callbacks.send(payout.callbackUrl, toResource(payout));
  }

  const scheduler = createSettlementScheduler({
    settleMs: opts.settleMs,
    slowSettleMs: opts.slowSettleMs,
    settle(payoutId: string, outcome: LaterOutcome) {
      const settled = store.update(payoutId, {
        status: outcome.status,
        reasonCode: outcome.reasonCode,
        settledAt: outcome.status === 'ACSC' ? opts.now() : null,
      });
      if (settled?.status === 'ACSC') completed(settled);
      if (settled && outcome.callback) notify(settled);
    },
  });

  // Payouts accepted before a restart settle when they would have: at once when that time passed
  // while the simulator was down (their callback then goes out, as it would have).
  for (const payout of store.all()) {
    if (isTerminal(payout.status)) continue;
    const outcome = outcomeFor(payout.amount.amount_minor);
    if (outcome.kind !== 'settles_later') continue;
    scheduler.schedule(payout.id, outcome, opts.now().getTime() - payout.createdAt.getTime());
  }

  function create(idempotencyKey: string, body: SubmitPayoutBody, fingerprint: string): Payout {
    const outcome = outcomeFor(body.amount.amount_minor);
    const at = opts.now();
    const rejected = outcome.kind === 'rejected_at_once';
    const payout: Payout = {
      id: newPayoutId(),
      idempotencyKey,
      fingerprint,
      rail: body.rail,
      amount: { currency: body.amount.currency, amount_minor: body.amount.amount_minor },
      callbackUrl: body.callback_url,
      debtor: { ...body.debtor, document: { ...body.debtor.document } },
      references: { ...body.references },
      status: rejected ? 'RJCT' : 'ACSP',
      reasonCode: rejected ? outcome.reasonCode : null,
      // A payout refused before it reached the rail has no rail reference.
      reference: rejected ? null : newRailReference(body.rail, at),
      createdAt: at,
      settledAt: null,
    };
    store.insert(payout);
    opts.stats.recordPayoutCreated(idempotencyKey);
    if (rejected) notify(payout);
    else scheduler.schedule(payout.id, outcome);
    return payout;
  }

  return {
    // Lookup and insert run in one synchronous step, with no await between them: Node runs it
    // to the end before it looks at any other request, which serializes submissions per key
    // (and globally), so concurrent submissions with one key create exactly one payout.
    submit(idempotencyKey, body) {
      const fingerprint = fingerprintOf(body);
      const existing = store.byIdempotencyKey(idempotencyKey);
      if (existing) {
        return existing.fingerprint === fingerprint
          ? { kind: 'replayed', payout: toResource(existing) }
          : { kind: 'conflict', payoutId: existing.id };
      }
      return { kind: 'created', payout: toResource(create(idempotencyKey, body, fingerprint)) };
    },
    byId(id) {
      const payout = store.byId(id);
      return payout && toResource(payout);
    },
    byIdempotencyKey(key) {
      const payout = store.byIdempotencyKey(key);
      return payout && toResource(payout);
    },
    async close() {
      scheduler.close();
      await callbacks.close();
      opts.journal?.close();
    },
  };
}
