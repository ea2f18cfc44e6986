// What the benches that run the whole system for pays share (bench/pay, bench/scale,
// bench/scale-out): the services' settings, the pay body and the probe pay before measuring.
import http from 'node:http';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import { sendPay } from '../pay/load';

// The admin API's maximum: nothing is refused at these rates, but the limiter still runs.
export const BENCH_RATE_LIMIT = 1_000_000;
// Every service with its own default pool (the e2e harness gives tests 4 connections each).
export const POOL = { DB_POOL_MAX: '10' };
// The webhook service as production runs it: the harness's test timings (a claim poll every
// 100 ms, a 6 s Kafka session) would bill the database and Kafka for polls production does not make.
export const WEBHOOK_PRODUCTION_TIMINGS = { WEBHOOK_POLL_MS: '1000', KAFKA_SESSION_TIMEOUT_MS: '30000' };
// An amount whose last two digits (00) select the default outcome: completed through the callback.
export const PAY_AMOUNT = 10;

/** bench/pay's pay body; with `callbackUrl`, every pay also makes a webhook delivery. */
export function payBody(callbackUrl?: string): string {
  return JSON.stringify({
    qr_string: PIX_WITHOUT_AMOUNT,
    amount: PAY_AMOUNT,
    ...PAYER,
    ...(callbackUrl === undefined ? {} : { callback_url: callbackUrl }),
  });
}

/** One pay through `gatewayUrl` end to end; throws `<what> did not complete: <its whole answer>` when it did not. */
export async function probePay(
  gatewayUrl: string,
  apiKey: string,
  body: string,
  what = 'a single pay',
): Promise<void> {
  const probe = await sendPay(
    new http.Agent({ keepAlive: false }),
    new URL('/v1/pay', gatewayUrl),
    apiKey,
    body,
  );
  if (probe.status !== 200 || !probe.text.includes('"status":"completed"'))
    throw new Error(`${what} did not complete: ${probe.status} ${probe.text}`);
}
