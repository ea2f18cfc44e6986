// What the kill -9 proofs (crash, stuck) share: the one live process of a deployable, found by the
// name prefix the harness gives it, and a poll that names its last value when it gives up.
import type { ManagedProcess, System } from '../harness';

/** The single live process whose name starts with `prefix` (e.g. `payout-`); throws otherwise. */
export function onlyRunning(system: System, prefix: string): ManagedProcess {
  const running = system.processes.filter((p) => p.name.startsWith(prefix) && !p.hasExited());
  if (running.length !== 1)
    throw new Error(`expected one running ${prefix}* process, found ${running.length}`);
  return running[0]!;
}

/** Reads until `done` holds; throws with the last value read once `timeoutMs` has passed. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  pauseMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
