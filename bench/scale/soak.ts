// The scale bench's soak (bench/README.md "scale"): pays at a fixed rate for many minutes with
// short retention settings, printing the size of every table a pay writes each sample, and judging
// whether the pruned ones stay flat once the retention period has passed.
import type pg from 'pg';
import { runPayOpenLoop } from '../pay/open-loop';

/** Pruned by the retention jobs: their size must stay flat (docs/operators.md "Retention"). */
export const PRUNED_TABLES = ['payout.outbox_events', 'webhook.deliveries', 'webhook.delivery_attempts'];
/** Shown: kept for good (transactions, instructions) or for 24 hours (idempotency keys). */
export const GROWING_TABLES = ['payout.transactions', 'payout.instructions', 'payout.idempotency_keys'];

// Flat: no sample after the settled point is larger than the reference by more than this share
// plus this many bytes (a few pages of slack for tables of a few hundred kilobytes).
const FLAT_RATIO = 1.2;
const FLAT_SLACK_BYTES = 512 * 1024;

export interface SoakOptions {
  gatewayUrl: string;
  apiKey: string;
  body: string;
  ratePerSec: number;
  minutes: number;
  sampleSeconds: number;
  /** The retention and job interval the system runs with; samples before both passed are warm-up. */
  retentionMs: number;
  intervalMs: number;
}

export interface SoakSample {
  atSeconds: number;
  pays: number;
  bytes: Record<string, number>;
}

export interface SoakSummary {
  samples: SoakSample[];
  /**
   * The first sample after the retention period, two prune rounds and one autovacuum round (the
   * deleted rows' space is reusable only once vacuumed): what later samples are held to.
   */
  settledAtSeconds: number;
  flat: Record<string, { referenceBytes: number; maxAfterBytes: number; flat: boolean }>;
  errors: number;
  unexpected: number;
  pass: boolean;
}

async function tableBytes(db: pg.Pool): Promise<Record<string, number>> {
  const tables = [...PRUNED_TABLES, ...GROWING_TABLES];
  const { rows } = await db.query<{ name: string; bytes: string }>(
    `SELECT name, pg_total_relation_size(name::regclass) AS bytes FROM unnest($1::text[]) AS name`,
    [tables],
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} kB`;

export async function runSoak(db: pg.Pool, opts: SoakOptions): Promise<SoakSummary> {
  const tables = [...PRUNED_TABLES, ...GROWING_TABLES];
  const samples: SoakSample[] = [{ atSeconds: 0, pays: 0, bytes: await tableBytes(db) }];
  console.log(['t (s)', 'pays', ...tables].join('\t'));
  const print = (s: SoakSample) =>
    console.log([s.atSeconds, s.pays, ...tables.map((t) => kb(s.bytes[t] ?? 0))].join('\t'));
  print(samples[0]!);
  const started = performance.now();
  const endMs = opts.minutes * 60_000;
  let pays = 0;
  let errors = 0;
  let unexpected = 0;
  while (performance.now() - started < endMs) {
    const durationMs = Math.min(opts.sampleSeconds * 1000, endMs - (performance.now() - started));
    const run = await runPayOpenLoop({
      gatewayUrl: opts.gatewayUrl,
      apiKey: opts.apiKey,
      body: opts.body,
      ratePerSec: opts.ratePerSec,
      maxInFlight: 1_000,
      durationMs,
    });
    pays += run.sent;
    errors += run.errors;
    unexpected += run.unexpected;
    const sample = {
      atSeconds: Math.round((performance.now() - started) / 1000),
      pays,
      bytes: await tableBytes(db),
    };
    samples.push(sample);
    print(sample);
  }
  const { rows: naptime } = await db.query<{ seconds: number }>(
    `SELECT setting::int AS seconds FROM pg_settings WHERE name = 'autovacuum_naptime'`,
  );
  const settledAfter = (opts.retentionMs + 2 * opts.intervalMs) / 1000 + (naptime[0]?.seconds ?? 60);
  const settled = samples.find((s) => s.atSeconds >= settledAfter) ?? samples[samples.length - 1]!;
  const after = samples.filter((s) => s.atSeconds > settled.atSeconds);
  const flat: SoakSummary['flat'] = {};
  for (const table of PRUNED_TABLES) {
    const referenceBytes = settled.bytes[table] ?? 0;
    const maxAfterBytes = Math.max(referenceBytes, ...after.map((s) => s.bytes[table] ?? 0));
    flat[table] = {
      referenceBytes,
      maxAfterBytes,
      flat: maxAfterBytes <= referenceBytes * FLAT_RATIO + FLAT_SLACK_BYTES,
    };
  }
  return {
    samples,
    settledAtSeconds: settled.atSeconds,
    flat,
    errors,
    unexpected,
    pass: after.length > 0 && errors === 0 && unexpected === 0 && Object.values(flat).every((f) => f.flat),
  };
}

export function formatSoak(s: SoakSummary): string {
  const lines = [
    `pruned tables after t=${s.settledAtSeconds} s (retention, two prune rounds and an autovacuum round passed), held to ×${FLAT_RATIO} + ${kb(FLAT_SLACK_BYTES)}:`,
  ];
  for (const [table, f] of Object.entries(s.flat)) {
    lines.push(
      `  ${table.padEnd(28)} ${kb(f.referenceBytes).padStart(10)} → max ${kb(f.maxAfterBytes).padStart(10)}  ${f.flat ? 'flat' : 'GROWS'}`,
    );
  }
  if (s.samples.filter((x) => x.atSeconds > s.settledAtSeconds).length === 0)
    lines.push('  no sample after the retention period: run longer (BENCH_SCALE_SOAK_MINUTES)');
  lines.push(`errors ${s.errors}, unexpected answers ${s.unexpected}`);
  return lines.join('\n');
}
