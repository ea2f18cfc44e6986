import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './logger';

export type ShutdownStep = { name: string; run: () => unknown };

type ShutdownOptions = {
  logger: Logger;
  /** One deadline for all steps; keep it under the pod's terminationGracePeriodSeconds. */
  graceMs: number;
  /** Run in order: readiness, servers, consumers, pools, telemetry (docs/contributing.md "Shutdown"). */
  steps: ShutdownStep[];
  /** Defaults to SIGTERM and SIGINT. An empty list registers no handlers (tests). */
  signals?: NodeJS.Signals[];
  /** Called with the exit code at the end; process.exit by default. */
  exit?: (code: number) => void;
  /** Clock of the repeated-signal window (tests); Date.now by default. */
  now?: () => number;
};

/**
 * The same signal again within this window is the first one delivered twice, not a second signal:
 * one Ctrl-C under `npm start` reaches the process from the terminal and again forwarded by npm
 * (docs/contributing.md "Shutdown").
 */
const REPEATED_SIGNAL_WINDOW_MS = 1_000;

type ShutdownResult = { code: number; failed: string[]; timedOut: boolean };

/** Starts the shutdown as a signal would; resolves when the steps are done or the deadline hit. */
type TriggerShutdown = (reason?: string) => Promise<ShutdownResult>;

/**
 * Registers the ordered shutdown. The first signal runs the steps under one deadline; a second
 * signal exits at once (the first one repeated within REPEATED_SIGNAL_WINDOW_MS is not a second).
 * Returns the trigger, for programmatic shutdown and tests.
 */
export function onShutdown(opts: ShutdownOptions): TriggerShutdown {
  const { logger, graceMs, steps } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const signals = opts.signals ?? ['SIGTERM', 'SIGINT'];
  const now = opts.now ?? Date.now;
  let running: Promise<ShutdownResult> | undefined;
  let first: { signal: NodeJS.Signals; atMs: number } | undefined;

  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      if (first?.signal === signal && now() - first.atMs < REPEATED_SIGNAL_WINDOW_MS) return;
      logger.warn({ signal }, 'second signal during shutdown, exiting now');
      exit(1);
      return;
    }
    first ??= { signal, atMs: now() };
    void trigger(signal);
  };
  for (const signal of signals) process.on(signal, onSignal);

  function trigger(reason = 'requested'): Promise<ShutdownResult> {
    running ??= runSteps(reason).then((result) => {
      for (const signal of signals) process.off(signal, onSignal);
      exit(result.code);
      return result;
    });
    return running;
  }

  async function runSteps(reason: string): Promise<ShutdownResult> {
    logger.info({ reason, grace_ms: graceMs }, 'shutting down');
    const deadline = Date.now() + graceMs;
    const failed: string[] = [];
    for (const step of steps) {
      const remaining = deadline - Date.now();
      const outcome = await runWithin(step, remaining);
      if (outcome === 'timeout') {
        logger.error({ step: step.name, grace_ms: graceMs }, 'shutdown deadline reached');
        return { code: 1, failed: [...failed, step.name], timedOut: true };
      }
      if (outcome instanceof Error) {
        logger.error({ step: step.name, err: outcome }, 'shutdown step failed');
        failed.push(step.name);
      } else {
        logger.info({ step: step.name }, 'shutdown step done');
      }
    }
    return { code: failed.length > 0 ? 1 : 0, failed, timedOut: false };
  }

  return trigger;
}

function runWithin(step: ShutdownStep, ms: number): Promise<'done' | 'timeout' | Error> {
  if (ms <= 0) return Promise.resolve('timeout');
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), ms);
    Promise.resolve()
      .then(step.run)
      .then(
        () => resolve('done'),
        (err: unknown) => resolve(err instanceof Error ? err : new Error(String(err))),
      )
      .finally(() => clearTimeout(timer));
  });
}

/** A background loop that a shutdown step stops: `stop()` is idempotent and waits for the round in flight. */
type WorkerLoop = { stop(): Promise<void> };

/**
 * Runs `round` until stopped, sleeping `intervalMs` after each round unless it answers true (more
 * work is ready: go again at once). A round that throws is passed to `onError` and tried again after
 * the interval. The round gets the stop signal, to cut long waits short.
 */
export function runWorkerLoop(opts: {
  round: (signal: AbortSignal) => Promise<boolean>;
  intervalMs: number;
  onError: (err: unknown) => void;
}): WorkerLoop {
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let again = false;
      try {
        again = (await opts.round(stopping.signal)) === true;
      } catch (err) {
        opts.onError(err);
      }
      if (!again) await sleep(opts.intervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        await loop;
      })();
      return stopped;
    },
  };
}
