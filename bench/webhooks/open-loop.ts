// Open-loop load for POST /v1/pay: request i leaves at start + i / rate whatever the earlier ones
// are doing (a fixed arrival schedule, not callers waiting for answers), each with its own
// Idempotency-Key, over keep-alive connections opened as needed. Every answer's body is read for
// the transaction's id and status.
import http from 'node:http';
import { sendPay } from '../pay/load';

export interface OpenLoopOptions {
  gatewayUrl: string;
  apiKey: string;
  body: string;
  ratePerSec: number;
  durationMs: number;
}

export interface OpenLoopResult {
  sent: number;
  byHttpStatus: Record<string, number>;
  byTransactionStatus: Record<string, number>;
  errors: number;
  /** Every answer's latency, ms. */
  latenciesMs: number[];
  /** Transaction id of every 200 answer, and of those answered completed. */
  transactionIds: string[];
  completedIds: string[];
  /** The most a request left after its scheduled time. */
  maxScheduleLagMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runOpenLoop(opts: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL('/v1/pay', opts.gatewayUrl);
  const total = Math.max(1, Math.round((opts.ratePerSec * opts.durationMs) / 1000));
  const intervalMs = 1000 / opts.ratePerSec;
  const result: OpenLoopResult = {
    sent: 0,
    byHttpStatus: {},
    byTransactionStatus: {},
    errors: 0,
    latenciesMs: [],
    transactionIds: [],
    completedIds: [],
    maxScheduleLagMs: 0,
  };
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = performance.now();
    result.maxScheduleLagMs = Math.max(result.maxScheduleLagMs, sentAt - due);
    result.sent += 1;
    inFlight.push(
      sendPay(agent, url, opts.apiKey, opts.body).then(
        ({ status, text }) => {
          result.latenciesMs.push(performance.now() - sentAt);
          result.byHttpStatus[status] = (result.byHttpStatus[status] ?? 0) + 1;
          if (status !== 200) return;
          let txn: { id?: string; status?: string } | undefined;
          try {
            txn = (JSON.parse(text) as { transaction?: { id?: string; status?: string } }).transaction;
          } catch {
            txn = undefined;
          }
          const txnStatus = txn?.status ?? 'none';
          result.byTransactionStatus[txnStatus] = (result.byTransactionStatus[txnStatus] ?? 0) + 1;
          if (txn?.id) result.transactionIds.push(txn.id);
          if (txn?.id && txnStatus === 'completed') result.completedIds.push(txn.id);
        },
        () => {
          result.errors += 1;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return result;
}
