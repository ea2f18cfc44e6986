// Open-loop load for POST /v1/pay (bench/README.md "pay"): pays sent on a fixed arrival schedule
// (../shared/open-loop.ts, latency from each pay's due time), each with its own Idempotency-Key,
// over a keep-alive agent that opens connections as needed. Every answer's body is read and
// checked. Shared with bench/webhooks part B.
import http from 'node:http';
import { type OpenLoopRun, type OpenLoopSchedule, runOpenLoop } from '../shared/open-loop';
import { sendPay } from './load';

export interface PayOpenLoopOptions extends OpenLoopSchedule {
  gatewayUrl: string;
  /** Every gateway, pay i to gatewayUrls[i % length] (bench/scale-out); gatewayUrl alone when absent. */
  gatewayUrls?: readonly string[];
  apiKey: string;
  /** The pay body without its Idempotency-Key (one fresh UUID per request). */
  body: string;
}

export interface PayOpenLoopResult extends OpenLoopRun {
  /** Answers per HTTP status, and 2xx answers per transaction status in the body. */
  byHttpStatus: Record<string, number>;
  byTransactionStatus: Record<string, number>;
  /** Requests that got no answer (socket errors, timeouts). */
  errors: number;
  /** Answers that were not a 2xx carrying a completed, failed or processing transaction. */
  unexpected: number;
  /** Latency of every answer, any status, from its due time, ms. */
  latenciesMs: number[];
  /** Transaction id of every 2xx answer, and of those answered completed. */
  transactionIds: string[];
  completedIds: string[];
}

// A pay answers its transaction once terminal, or still processing when it outlasts
// EXECUTE_WAIT_MS (payout README): either is a pay the system took.
const TAKEN = new Set(['completed', 'failed', 'processing']);

function transactionOf(text: string): { id?: string; status?: string } | undefined {
  try {
    return (JSON.parse(text) as { transaction?: { id?: string; status?: string } }).transaction;
  } catch {
    return undefined;
  }
}

export async function runPayOpenLoop(opts: PayOpenLoopOptions): Promise<PayOpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxInFlight });
  const urls = (opts.gatewayUrls?.length ? opts.gatewayUrls : [opts.gatewayUrl]).map(
    (gateway) => new URL('/v1/pay', gateway),
  );
  const byHttpStatus: Record<string, number> = {};
  const byTransactionStatus: Record<string, number> = {};
  const latenciesMs: number[] = [];
  const transactionIds: string[] = [];
  const completedIds: string[] = [];
  let errors = 0;
  let unexpected = 0;
  try {
    const run = await runOpenLoop(
      opts,
      (index) => sendPay(agent, urls[index % urls.length]!, opts.apiKey, opts.body),
      (_index, latencyMs, outcome) => {
        if (!outcome.ok) {
          errors += 1;
          return;
        }
        const { status, text } = outcome.value;
        latenciesMs.push(latencyMs);
        byHttpStatus[status] = (byHttpStatus[status] ?? 0) + 1;
        if (status < 200 || status > 299) {
          unexpected += 1;
          return;
        }
        const txn = transactionOf(text);
        const txnStatus = txn?.status ?? 'none';
        byTransactionStatus[txnStatus] = (byTransactionStatus[txnStatus] ?? 0) + 1;
        if (!txn?.id || !TAKEN.has(txnStatus)) unexpected += 1;
        if (txn?.id) transactionIds.push(txn.id);
        if (txn?.id && txnStatus === 'completed') completedIds.push(txn.id);
      },
    );
    return {
      ...run,
      byHttpStatus,
      byTransactionStatus,
      errors,
      unexpected,
      latenciesMs,
      transactionIds,
      completedIds,
    };
  } finally {
    agent.destroy();
  }
}
