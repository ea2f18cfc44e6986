// The same-run baseline of bench/pay: pgbench running one payment's row writes, grouped in the
// same database transactions as the services group them, against copies of the real tables
// (`CREATE TABLE … (LIKE … INCLUDING ALL)`: same columns, defaults, checks and indexes; the
// foreign keys and the terminal-state trigger added back) filled from real rows of the pay run, so
// row sizes match too. What it leaves out on purpose: every read, Redis, gRPC, HTTP and Kafka.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { percentile } from '../gateway/load';

const execFileAsync = promisify(execFile);

export const BASELINE_SCHEMA = 'bench_pay';

/** PGBENCH, else the newest /usr/lib/postgresql/<n>/bin/pgbench (scripts/infra's Debian packages). */
export function findPgbench(): string {
  const fromEnv = process.env.PGBENCH;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin', 'pgbench');
    if (existsSync(bin)) return bin;
  }
  throw new Error('pgbench not found: install postgresql-client or set PGBENCH');
}

/**
 * Copies of the tables a pay writes, plus one real row of each as the template the script copies
 * (the pay run must have written them). The schema name is a constant, never input.
 */
export async function prepareBaselineTables(databaseUrl: string): Promise<BaselineTables> {
  const s = BASELINE_SCHEMA;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await client.query(`CREATE SCHEMA ${s}`);
    // The gateway's pay records table (gateway/migrations 0002) is dropped by 0003: the baseline
    // writes it only where the system still does.
    const { rows: found } = await client.query<{ t: string | null }>(
      "SELECT to_regclass('gateway.pay_idempotency_keys')::text AS t",
    );
    const payKeys = found[0]?.t != null;
    if (payKeys)
      await client.query(`
        CREATE TABLE ${s}.pay_idempotency_keys (LIKE gateway.pay_idempotency_keys INCLUDING ALL);
        CREATE TABLE ${s}.sample_pay_key AS SELECT * FROM gateway.pay_idempotency_keys LIMIT 1;
      `);
    await client.query(`
      CREATE TABLE ${s}.instructions (LIKE payout.instructions INCLUDING ALL);
      CREATE TABLE ${s}.transactions (LIKE payout.transactions INCLUDING ALL);
      CREATE TABLE ${s}.idempotency_keys (LIKE payout.idempotency_keys INCLUDING ALL);
      CREATE TABLE ${s}.outbox_events (LIKE payout.outbox_events INCLUDING ALL);
      ALTER TABLE ${s}.transactions ADD FOREIGN KEY (tenant_id, instruction_id)
        REFERENCES ${s}.instructions (tenant_id, id);
      ALTER TABLE ${s}.idempotency_keys ADD FOREIGN KEY (transaction_id) REFERENCES ${s}.transactions (id);
      CREATE TRIGGER transactions_terminal_state_guard BEFORE UPDATE ON ${s}.transactions
        FOR EACH ROW EXECUTE FUNCTION payout.transactions_keep_terminal_state();
      CREATE TABLE ${s}.sample_instruction AS SELECT * FROM payout.instructions LIMIT 1;
      CREATE TABLE ${s}.sample_transaction AS
        SELECT * FROM payout.transactions WHERE status = 'completed' LIMIT 1;
      CREATE TABLE ${s}.sample_key AS SELECT * FROM payout.idempotency_keys LIMIT 1;
      CREATE TABLE ${s}.sample_event AS SELECT * FROM payout.outbox_events LIMIT 1;
    `);
    const { rows } = await client.query<{ n: string }>(
      `SELECT ${payKeys ? `(SELECT count(*) FROM ${s}.sample_pay_key) + ` : ''}(SELECT count(*) FROM ${s}.sample_instruction)
            + (SELECT count(*) FROM ${s}.sample_transaction) + (SELECT count(*) FROM ${s}.sample_key)
            + (SELECT count(*) FROM ${s}.sample_event) AS n`,
    );
    if (Number(rows[0]?.n) !== (payKeys ? 5 : 4))
      throw new Error('the pay run left no template row in some table');
    return { payKeys };
  } finally {
    await client.end();
  }
}

/** Which of the optional tables the system still writes (see prepareBaselineTables). */
export interface BaselineTables {
  payKeys: boolean;
}

/**
 * One payment's writes, in the services' order and transactions (see bench/README.md "pay" for
 * the statement each line stands for). Ids fit the real checks (`ins_`/`txn_` + 26 characters).
 */
export function payWritesScript(tables: BaselineTables): string {
  const payKey = `
-- gateway: the pay's idempotency record (pay-store claim)
INSERT INTO ${BASELINE_SCHEMA}.pay_idempotency_keys (tenant_id, idempotency_key, request_fingerprint, instruction_id, expires_at)
  SELECT tenant_id, 'k' || :n, request_fingerprint, 'ins_' || lpad(:n::text, 26, '0'), now() + interval '1 day'
    FROM ${BASELINE_SCHEMA}.sample_pay_key;`;
  return `
\\set n random(1, 999999999999999999)${tables.payKeys ? payKey : ''}
-- payout CreateInstruction
INSERT INTO ${BASELINE_SCHEMA}.instructions (id, tenant_id, scheme_id, country, rail, decoded, amount_currency, amount_minor, pay_currency, pay_amount_minor, quote_id, quote)
  SELECT 'ins_' || lpad(:n::text, 26, '0'), tenant_id, scheme_id, country, rail, decoded, amount_currency, amount_minor, pay_currency, pay_amount_minor, quote_id, quote
    FROM ${BASELINE_SCHEMA}.sample_instruction;
-- payout ExecuteInstruction: the pending transaction and its idempotency key, one transaction
BEGIN;
INSERT INTO ${BASELINE_SCHEMA}.transactions (id, tenant_id, instruction_id, scheme_id, rail, status, amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account, payer_tax_id, callback_url, lease_until, next_poll_at)
  SELECT 'txn_' || lpad(:n::text, 26, '0'), tenant_id, 'ins_' || lpad(:n::text, 26, '0'), scheme_id, rail, 'pending', amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account, payer_tax_id, callback_url, now() + interval '30 seconds', now() + interval '30 seconds'
    FROM ${BASELINE_SCHEMA}.sample_transaction;
INSERT INTO ${BASELINE_SCHEMA}.idempotency_keys (tenant_id, key, request_fingerprint, transaction_id, expires_at)
  SELECT tenant_id, 'k' || :n, request_fingerprint, 'txn_' || lpad(:n::text, 26, '0'), now() + interval '1 day'
    FROM ${BASELINE_SCHEMA}.sample_key;
COMMIT;
-- the partner accepted: held in memory by the waiting pay, nothing written (payout README "Execute")
-- the callback settles it: the terminal update and its outbox event, one transaction
BEGIN;
UPDATE ${BASELINE_SCHEMA}.transactions
   SET status = 'completed', result_reference = 'E99999999' || lpad(:n::text, 23, '0'), result_settled_at = now(),
       next_poll_at = NULL, lease_until = NULL, updated_at = now()
 WHERE id = 'txn_' || lpad(:n::text, 26, '0') AND status IN ('pending', 'processing');
INSERT INTO ${BASELINE_SCHEMA}.outbox_events (event_id, event_type, topic, message_key, payload, headers)
  SELECT gen_random_uuid(), event_type, topic, 'txn_' || lpad(:n::text, 26, '0'), payload, headers
    FROM ${BASELINE_SCHEMA}.sample_event
  RETURNING id AS event_row
\\gset
COMMIT;
-- the relay: lock the event, (Kafka's ack), mark it published, one transaction
BEGIN;
SELECT id FROM ${BASELINE_SCHEMA}.outbox_events
 WHERE id = :event_row AND published_at IS NULL FOR UPDATE SKIP LOCKED;
UPDATE ${BASELINE_SCHEMA}.outbox_events SET published_at = now() WHERE id = :event_row;
COMMIT;
`;
}

export interface PgbenchResult {
  scriptsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  scripts: number;
  failed: number;
}

/**
 * Runs the script for `seconds` with `clients` connections (extended query protocol, as node-pg
 * sends parameterized queries), logging every script's latency to compute p50 and p99.
 */
export async function runPgbench(opts: {
  databaseUrl: string;
  clients: number;
  seconds: number;
  tables: BaselineTables;
}): Promise<PgbenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pay-pgbench-'));
  try {
    const script = path.join(dir, 'pay-writes.sql');
    writeFileSync(script, payWritesScript(opts.tables));
    const threads = Math.min(opts.clients, os.cpus().length);
    const { stdout } = await execFileAsync(
      findPgbench(),
      [
        '--no-vacuum',
        '--protocol=extended',
        `--client=${opts.clients}`,
        `--jobs=${threads}`,
        `--time=${opts.seconds}`,
        `--file=${script}`,
        '--log',
        `--log-prefix=${path.join(dir, 'pgbench')}`,
        opts.databaseUrl,
      ],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024, timeout: (opts.seconds + 120) * 1000 },
    );
    const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(stdout);
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    // Per-transaction log: client_id transaction_no time_us script_no epoch epoch_us.
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((f) => f.startsWith('pgbench.'))) {
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        const micros = Number(line.split(' ')[2]);
        if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
      }
    }
    const samples = Float64Array.from(latencies);
    return {
      scriptsPerSec: Number(tps[1]),
      p50Ms: percentile(samples, 0.5),
      p99Ms: percentile(samples, 0.99),
      scripts: samples.length,
      failed,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
