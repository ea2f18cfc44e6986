// Webhooks benchmark (bench/README.md "webhooks"), two parts, each against a baseline measured in
// the same run:
//   A. delivery throughput: the webhook service (Kafka → dispatcher → database → worker → signed
//      POST) against a bare sign-and-POST loop, at the worker's concurrency, to the same receiver;
//   B. terminal commit → receiver latency under an open-loop pay load through the whole system,
//      against commit → Kafka read by our own consumer.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../test-e2e/harness';
import { type DeliveryOptions, runDeliveryThroughput } from './delivery';
import { brokersFromEnv } from './kafka';
import { type LatencyOptions, runCommitToReceiver } from './latency';
import { startReceiver } from './receiver';
import { writeResults } from './report';

export interface WebhooksBenchOptions {
  /** Which parts to run: 'a' (throughput), 'b' (latency). */
  parts: ReadonlyArray<'a' | 'b'>;
  delivery: Omit<DeliveryOptions, 'cpuProfileDir'>;
  latency: Omit<LatencyOptions, 'cpuProfileDir'>;
  /** The receiver checks the signature of one request in this many (the first always). */
  verifyEvery: number;
  /** Where the webhook service writes V8 CPU profiles (unset: no profiling). */
  cpuProfileDir?: string;
}

export async function runWebhooksBench(opts: WebhooksBenchOptions): Promise<boolean> {
  const brokers = brokersFromEnv();
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const receiver = await startReceiver({ logDir, verifyEvery: opts.verifyEvery });
  let failed = true;
  try {
    const results: Record<string, unknown> = {};
    let pass = true;
    if (opts.parts.includes('a')) {
      const summary = await runDeliveryThroughput(
        { ...opts.delivery, cpuProfileDir: opts.cpuProfileDir },
        { receiver, logDir, brokers },
      );
      results.delivery = summary;
      pass &&= summary.pass.all;
    }
    if (opts.parts.includes('b')) {
      if (opts.parts.includes('a')) console.log('');
      const summary = await runCommitToReceiver(
        { ...opts.latency, cpuProfileDir: opts.cpuProfileDir },
        { receiver, brokers },
      );
      results.latency = summary;
      pass &&= summary.pass.all;
    }
    const file = writeResults(REPO_ROOT, { ...opts }, results);
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    if (opts.cpuProfileDir) console.log(`CPU profiles of the webhook service in ${opts.cpuProfileDir}`);
    failed = false;
    return pass;
  } finally {
    await receiver.stop();
    if (failed) console.error(`(bench logs kept in ${logDir})`);
    else rmSync(logDir, { recursive: true, force: true });
  }
}
