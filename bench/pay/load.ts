// Closed-loop load for POST /v1/pay: `concurrency` callers, each sending its next pay as soon as
// the last one answered, over keep-alive connections. autocannon cannot give every request its
// own Idempotency-Key, and a pay with a repeated key is a replay, not a payment; the answer's body
// is also read here, so a pay that answered 200 but did not complete is seen.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { postJson } from '../shared/post-json';

export interface PayLoadOptions {
  gatewayUrl: string;
  apiKey: string;
  /** The pay body without its Idempotency-Key (one fresh UUID per request). */
  body: string;
  concurrency: number;
  durationMs: number;
}

export interface PayLoadResult {
  durationMs: number;
  /** Every answered request, any status. */
  responses: number;
  /** Answers per HTTP status. */
  byHttpStatus: Record<string, number>;
  /** 200 answers per transaction status in the body (completed, processing, failed, ...). */
  byTransactionStatus: Record<string, number>;
  /** Requests that got no answer (socket errors, timeouts). */
  errors: number;
  /** Latency in ms of every 200 answer whose transaction completed, full resolution. */
  latenciesMs: Float64Array;
  /** Start and end of the measured window (Date.now()), to match events to it. */
  startedAtMs: number;
  endedAtMs: number;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** One POST /v1/pay with a fresh Idempotency-Key, read whole (shared with bench/webhooks). */
export function sendPay(
  agent: http.Agent,
  url: URL,
  apiKey: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return postJson(agent, url, body, {
    headers: { 'x-api-key': apiKey, 'idempotency-key': randomUUID() },
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
}

function transactionStatusOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { transaction?: { status?: string } };
    return parsed.transaction?.status ?? 'none';
  } catch {
    return 'unparsable';
  }
}

export async function runPayLoad(opts: PayLoadOptions): Promise<PayLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const url = new URL('/v1/pay', opts.gatewayUrl);
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let responses = 0;
  let errors = 0;
  const byHttpStatus: Record<string, number> = {};
  const byTransactionStatus: Record<string, number> = {};
  const startedAtMs = Date.now();
  const stopAt = performance.now() + opts.durationMs;

  const caller = async () => {
    while (performance.now() < stopAt) {
      const sentAt = performance.now();
      try {
        const answer = await sendPay(agent, url, opts.apiKey, opts.body);
        const elapsed = performance.now() - sentAt;
        responses += 1;
        byHttpStatus[answer.status] = (byHttpStatus[answer.status] ?? 0) + 1;
        if (answer.status !== 200) continue;
        const status = transactionStatusOf(answer.text);
        byTransactionStatus[status] = (byTransactionStatus[status] ?? 0) + 1;
        if (status !== 'completed') continue;
        if (count === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[count++] = elapsed;
      } catch {
        errors += 1;
      }
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, caller));
  const durationMs = performance.now() - began;
  agent.destroy();
  return {
    durationMs,
    responses,
    byHttpStatus,
    byTransactionStatus,
    errors,
    latenciesMs: latencies.subarray(0, count),
    startedAtMs,
    endedAtMs: Date.now(),
  };
}
