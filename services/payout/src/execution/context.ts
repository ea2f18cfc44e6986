import type { Logger } from '@qr-payout/platform/log';
import type { InstructionResolver } from '../instructions/resolve';
import type { InstructionStore } from '../instructions/store';
import type { LiveTransaction } from './records';
import type { Settlement } from './settlement';
import type { SettlementSignals } from './settlement-signals';
import type { ExecutionStore } from './store';
import type { Submitter } from './submission';

export type ExecutionServiceDeps = {
  store: ExecutionStore;
  submitter: Submitter;
  settlement: Settlement;
  signals: SettlementSignals;
  logger: Logger;
  /** EXECUTE_WAIT_MS: the wait when the request gives none. */
  defaultWaitMs: number;
  /** How long execute owns its new transaction before the worker may take it over. */
  leaseMs: number;
  /**
   * POLL_BACKOFF_BASE_MS, the worker's first look after a submission: how long execute holds a
   * partner's acceptance in memory before it writes `processing` for the worker to poll.
   */
  firstPollMs: number;
  /** PARTNER_CALLBACK_BASE_URL, to check at execute that the instruction maps to its rail. */
  callbackBaseUrl: string;
  /** IDEMPOTENCY_KEY_TTL_MS unless a test shortens it. */
  idempotencyKeyTtlMs?: number;
  /** What a QR resolves to (amount, rail limits, quote), shared with CreateInstruction. */
  resolver: InstructionResolver;
  /** Pay's replays answer the instruction as stored. */
  instructions: Pick<InstructionStore, 'findInstruction'>;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private callback_url hosts (sandbox, tests). */
  allowPrivateCallbackTargets: boolean;
};

/**
 * The one record execute, pay, the wait, the replay and the partner callback run over: the
 * service's deps with what one service instance holds.
 */
export type Execution = ExecutionServiceDeps & {
  /** The idempotency key's lifetime, docs/api/idempotency.md "The Idempotency-Key". */
  keyTtlMs: number;
  /**
   * The rows this process's executes and pays are submitting or waiting on, with the partner's id
   * once it accepted (written only when the call stops waiting). The partner's callback for one of
   * them is checked against this row instead of a read (README "Execute: state machine, durable
   * idempotency, rails"); it can be stale only in its status, which the settlement's guarded
   * UPDATE decides anyway.
   */
  held: Map<string, LiveTransaction>;
};

/**
 * docs/api/idempotency.md "The Idempotency-Key": a key is remembered 24 hours. Payout owns it; the
 * gateway's cache learns it through GetExecutionSettings.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export function executionOf(deps: ExecutionServiceDeps): Execution {
  return { ...deps, keyTtlMs: deps.idempotencyKeyTtlMs ?? IDEMPOTENCY_KEY_TTL_MS, held: new Map() };
}
