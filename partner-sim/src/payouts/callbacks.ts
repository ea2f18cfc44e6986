import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest } from '@qr-payout/platform/http';
import type { Logger } from '@qr-payout/platform/log';
import { runOutsideTrace } from '@qr-payout/platform/telemetry';
import type { Faults } from './faults';
import type { PayoutResource } from './protocol';
import { signCallback } from './signature';
import type { SimStats } from './stats';

// Sends the terminal payout resource to the payout's callback_url, signed, retrying a failed
// attempt with exponential backoff. Each attempt is signed afresh: a retry minutes later must
// still fall inside the receiver's five-minute tolerance.

export type CallbackSenderOptions = {
  secret: string;
  /** Attempts in all (first try included). */
  attempts: number;
  /** Wait before the first retry; doubles after each failed attempt. */
  retryBaseMs: number;
  /** Per attempt: a receiver slower than this counts as failed. */
  timeoutMs: number;
  now: () => Date;
  logger: Logger;
  faults: Faults;
  stats: SimStats;
};

export type CallbackSender = {
  /** Starts delivering in the background. */
  send(callbackUrl: string, payout: PayoutResource): void;
  /** Stops every delivery under way (no further attempts) and waits for them to end. */
  close(): Promise<void>;
};

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

export function createCallbackSender(opts: CallbackSenderOptions): CallbackSender {
  const closing = new AbortController();
  const inFlight = new Set<Promise<void>>();

  async function attempt(callbackUrl: string, rawBody: string): Promise<number> {
    const timestamp = Math.floor(opts.now().getTime() / 1000);
    // Redirects are not followed (a 3xx counts as refused); closing stops the attempt.
    const response = await httpRequest(callbackUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'partner-signature': signCallback(opts.secret, rawBody, timestamp),
      },
      body: rawBody,
      timeoutMs: opts.timeoutMs,
      signal: closing.signal,
    });
    return response.status;
  }

  async function deliver(callbackUrl: string, payout: PayoutResource): Promise<void> {
    // Built on the first line written, not per delivery: most deliveries log nothing at the
    // running level, and a pino child costs CPU on every payout.
    let child: Logger | undefined;
    const log = (): Logger => (child ??= opts.logger.child({ payout_id: payout.id, status: payout.status }));
    if (opts.faults.nextCallbackFault()?.kind === 'drop') {
      opts.stats.recordCallback('dropped');
      log().info('partner-sim callback dropped by fault injection');
      return;
    }
    const rawBody = JSON.stringify(payout);
    for (let n = 1; n <= opts.attempts; n += 1) {
      try {
        const status = await attempt(callbackUrl, rawBody);
        if (status >= 200 && status < 300) {
          opts.stats.recordCallback('delivered');
          if (opts.logger.isLevelEnabled('debug'))
            log().debug({ attempt: n }, 'partner-sim callback delivered');
          return;
        }
        log().warn({ attempt: n, http_status: status }, 'partner-sim callback refused');
      } catch (err) {
        if (closing.signal.aborted) return;
        log().warn(
          { attempt: n, error: err instanceof Error ? err.message : String(err) },
          'partner-sim callback failed',
        );
      }
      if (n < opts.attempts) {
        try {
          await sleep(opts.retryBaseMs * 2 ** (n - 1), undefined, { signal: closing.signal });
        } catch (err) {
          if (isAbort(err)) return;
          throw err;
        }
      }
    }
    opts.stats.recordCallback('failed');
    log().warn({ attempts: opts.attempts }, 'partner-sim callback given up');
  }

  return {
    send(callbackUrl, payout) {
      // A partner is another organisation: its callback starts no trace of ours, whatever request
      // of ours its payout came in with (the HTTP instrumentation would carry that trace over).
      const delivery = runOutsideTrace(() => deliver(callbackUrl, payout)).catch((err: unknown) => {
        opts.logger.error({ err, payout_id: payout.id }, 'partner-sim callback crashed');
      });
      inFlight.add(delivery);
      void delivery.finally(() => inFlight.delete(delivery));
    },
    async close() {
      closing.abort();
      await Promise.all([...inFlight]);
    },
  };
}
