// Fault injection for tests and soak runs (README "Fault injection"). A plan holds queues of
// faults consumed one by one by the next matching requests, then rates rolled for every further
// request, and an added latency. Only reachable through /_sim/faults when PARTNER_SIM_FAULTS=true.

export type SubmitFault =
  /** 500 and no payout: the submission never landed. */
  | { kind: 'error_before_accept' }
  /** The payout is created (and settles), but the answer is a 500. */
  | { kind: 'error_after_accept' }
  /** The payout is created, and the answer is held back `ms` milliseconds. */
  | { kind: 'timeout_after_accept'; ms?: number };

/** The callback of the next payout to reach a terminal state is never sent (polling must find it). */
export type CallbackFault = { kind: 'drop' };

export type FaultRates = {
  /** Share of submissions answered 500, half before and half after accepting. */
  submit_5xx?: number;
  /** Share of submissions accepted and then answered only after `timeout_ms`. */
  submit_timeout?: number;
  /** Share of callbacks never sent. */
  drop_callback?: number;
};

export type FaultPlan = {
  submit?: SubmitFault[];
  callback?: CallbackFault[];
  rates?: FaultRates;
  /** Added to every /v1 request while set (replaces PARTNER_SIM_LATENCY_MS). */
  latency_ms?: number;
  /** How long `timeout_after_accept` holds the answer when the fault names no `ms`. */
  timeout_ms?: number;
};

export const DEFAULT_FAULT_TIMEOUT_MS = 5_000;

/** A submit fault with its hold time resolved. */
export type AppliedSubmitFault =
  | Exclude<SubmitFault, { kind: 'timeout_after_accept' }>
  | { kind: 'timeout_after_accept'; ms: number };

export type Faults = {
  /** Replaces the whole plan. */
  set(plan: FaultPlan): void;
  clear(): void;
  /** The plan as it stands: queues show what is not consumed yet. */
  view(): Required<Pick<FaultPlan, 'submit' | 'callback' | 'rates'>> &
    Pick<FaultPlan, 'latency_ms' | 'timeout_ms'>;
  /** The fault for the submission being handled now, if any (consumes a queued one). */
  nextSubmitFault(): AppliedSubmitFault | undefined;
  nextCallbackFault(): CallbackFault | undefined;
  /** The latency of the plan, or undefined when the plan sets none. */
  latencyMs(): number | undefined;
};

export function createFaults(opts: { random?: () => number } = {}): Faults {
  const random = opts.random ?? Math.random;
  let plan: FaultPlan = {};
  let submitQueue: SubmitFault[] = [];
  let callbackQueue: CallbackFault[] = [];

  return {
    set(next) {
      plan = { ...next };
      submitQueue = [...(next.submit ?? [])];
      callbackQueue = [...(next.callback ?? [])];
    },
    clear() {
      plan = {};
      submitQueue = [];
      callbackQueue = [];
    },
    view() {
      return {
        submit: [...submitQueue],
        callback: [...callbackQueue],
        rates: { ...(plan.rates ?? {}) },
        ...(plan.latency_ms === undefined ? {} : { latency_ms: plan.latency_ms }),
        ...(plan.timeout_ms === undefined ? {} : { timeout_ms: plan.timeout_ms }),
      };
    },
    nextSubmitFault() {
      const holdMs = plan.timeout_ms ?? DEFAULT_FAULT_TIMEOUT_MS;
      const queued = submitQueue.shift();
      if (queued?.kind === 'timeout_after_accept') return { kind: queued.kind, ms: queued.ms ?? holdMs };
      if (queued) return queued;
      const error = plan.rates?.submit_5xx ?? 0;
      const timeout = plan.rates?.submit_timeout ?? 0;
      if (error === 0 && timeout === 0) return undefined;
      const roll = random();
      if (roll < error)
        return random() < 0.5 ? { kind: 'error_before_accept' } : { kind: 'error_after_accept' };
      if (roll < error + timeout) return { kind: 'timeout_after_accept', ms: holdMs };
      return undefined;
    },
    nextCallbackFault() {
      const queued = callbackQueue.shift();
      if (queued) return queued;
      const drop = plan.rates?.drop_callback ?? 0;
      return drop > 0 && random() < drop ? { kind: 'drop' } : undefined;
    },
    latencyMs: () => plan.latency_ms,
  };
}
