// The fuzz stage (docs/testing.md "Fuzz"): property tests that send POST /v1/pay requests built by
// fast-check (QR codes with a correct CRC and any characters and lengths in every field, raw-text
// bodies with any numbers and keys, with and without an Idempotency-Key) to the whole system, every
// service its own process against real PostgreSQL, Redis and Kafka. For every answer:
// - never a 5xx (docs/api/errors.md "Error names": no InternalError is ever the right answer to a
//   request, whatever it holds);
// - every answer that is not a 2xx is the error body of docs/api/errors.md "The error body";
// - every 200 pays the amount the request wrote (docs/api/resources.md "Money"): the transaction's
//   and the instruction's amounts in the answer, the transaction's row in payout's database and the
//   payout the partner simulator received, all in integer minor units compared with the body's
//   amount as written (or, without one, an amount the QR writes), never through a double.
// FUZZ_CASES sets the number of cases (300 by default, 10,000 in the CI stage), FUZZ_SEED the seed
// (random when unset); the seed and the command that runs the same cases again are printed at the
// start and in every failure (docs/testing.md "Fuzz").
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { type System, startSystem, type TestTenant } from './harness';
import { errorBodyProblem } from './support/error-body';
import { answerAmountLiterals, exactMinorUnits } from './support/fuzz-amounts';
import { describePayCase, type PayCase, payCaseArb, wrongAmount } from './support/fuzz-body';
import { type PixCharge, qrCaseArb, testKitBases } from './support/fuzz-qr';
import { type ApiResponse, call } from './support/http';
import { rawPost } from './support/raw-http';

/** fast-check's seeds, and so a run's: 0 to 2^31 - 1. */
const SEEDS = 2 ** 31;
// An empty variable counts as unset, as `${FUZZ_SEED:-}` does in the shell, not as seed 0.
const CASES = Number(process.env.FUZZ_CASES || '300');
const SEED = Number(process.env.FUZZ_SEED || Math.floor(Math.random() * SEEDS));
if (!Number.isSafeInteger(CASES) || CASES < 1 || !Number.isInteger(SEED) || SEED < 0 || SEED >= SEEDS)
  throw new Error(
    `FUZZ_CASES must be a positive whole number and FUZZ_SEED a whole number from 0 to 2^31 - 1 (${CASES}, ${SEED})`,
  );
/**
 * `<seed>:<path>` from a failure's report: runs that one case again (and its shrinking), e.g.
 * FUZZ_REPLAY='1234:22:1:0' (the system's state, like a charge already paid, may differ).
 */
const REPLAY = process.env.FUZZ_REPLAY
  ? {
      seed: Number(process.env.FUZZ_REPLAY.split(':')[0]),
      path: process.env.FUZZ_REPLAY.split(':').slice(1).join(':'),
    }
  : undefined;
/** How this file is run (scripts/test-all, the fuzz stage), after the FUZZ_* variables. */
const JEST_COMMAND =
  "scripts/node24 scripts/with-infra jest --selectProjects e2e --runInBand --testPathPatterns 'test-e2e/fuzz\\.e2e\\.test\\.ts$'";
/** The command that runs this run's cases again (docs/testing.md "Fuzz"). */
const RERUN = REPLAY
  ? `FUZZ_REPLAY='${process.env.FUZZ_REPLAY}' ${JEST_COMMAND}`
  : `FUZZ_SEED=${SEED} FUZZ_CASES=${CASES} ${JEST_COMMAND}`;
/** Requests in flight at once: one fast-check run each, so shrinking one never stalls the others. */
const IN_FLIGHT = 8;
/** Far above what a run sends, so no answer is a 429 the run caused itself. */
const RATE_LIMIT_PER_MINUTE = 1_000_000;
/** Dynamic Pix charges made at the partner simulator for the QRs to point at. */
const CHARGES = 24;
// The partner simulator's sandbox bearer key (PARTNER_SIM_API_KEY unset, as payout's PARTNER_API_KEY).
const SIM_API_KEY = 'sim_key';

// Starting the system takes up to 4 minutes on a busy machine; then 40 to 65 cases a second on 2 cores.
jest.setTimeout(Math.min(840_000, 120_000 + CASES * 60));

let system: System;
let tenant: TestTenant;
let db: pg.Pool;
let charges: PixCharge[] = [];
/** fast-check's report of each failed run: the shrunk counterexample and the broken rule. */
const reports: string[] = [];
/** Each kind of failure (kindOf) and the fast-check run that found it first. */
const failureKinds = new Map<string, string>();
/** Later failures of a kind already reported: the kind and the request, not shrunk. */
const repeats: string[] = [];

interface Tally {
  /** Generated cases run (fast-check's runs; shrinking's replays are only requests). */
  cases: number;
  requests: number;
  /** Requests written on a socket, with a header fetch would not send (support/raw-http.ts). */
  raw: number;
  /** Paid transactions whose payout the simulator has, and those it never received. */
  atPartner: number;
  notAtPartner: number;
  byStatus: Map<string, number>;
  byTag: Map<string, number>;
  byTransactionStatus: Map<string, number>;
  /** Broken rules by kind (kindOf), shrinking's requests included. */
  byKind: Map<string, number>;
  paid: { id: string; minor: bigint; status: string; request: string }[];
}

const tally: Tally = {
  cases: 0,
  requests: 0,
  raw: 0,
  atPartner: 0,
  notAtPartner: 0,
  byStatus: new Map(),
  byTag: new Map(),
  byTransactionStatus: new Map(),
  byKind: new Map(),
  paid: [],
};

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

beforeAll(async () => {
  // Before anything can fail or hang, so a run that never reaches its report still names its seed.
  process.stdout.write(`fuzz: FUZZ_SEED=${SEED} FUZZ_CASES=${CASES}; run again: ${RERUN}\n`);
  system = await startSystem({
    readyTimeoutMs: 120_000,
    // A …54 amount is answered processing after this wait (docs/api/sandbox.md "Test amounts");
    // 2 s instead of 8 keeps one from holding a slot of the pool for long.
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000' } },
  });
  tenant = await system.createTenant(`e2e-fuzz-${randomBytes(4).toString('hex')}`, RATE_LIMIT_PER_MINUTE);
  db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  charges = await Promise.all(Array.from({ length: CHARGES }, (_, i) => makeCharge(i)));
}, 300_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
}, 60_000);

/** A dynamic Pix charge at the simulator, `POST /pix/v2/cob` (partner-sim README "HTTP API"). */
async function makeCharge(i: number): Promise<PixCharge> {
  const valor = `${(i + 1) * 7}.${String((i * 17) % 100).padStart(2, '0')}`;
  const res = await fetch(`${system.partnerSimUrl}/pix/v2/cob`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ valor, chave: '+5511999998888', nome: 'Fuzz Charge' }),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 201) throw new Error(`POST /pix/v2/cob answered ${res.status}: ${await res.text()}`);
  const charge = (await res.json()) as { location: string; qr_string: string };
  return { location: charge.location, qrString: charge.qr_string, amountMinor: exactMinorUnits(valor) ?? 0n };
}

/** A header value fetch will not send as it is: a control or DEL (refused), spaces around (trimmed). */
function fetchRefuses(value: string): boolean {
  if (value !== value.trim()) return true;
  return [...value].some((c) => (c < ' ' && c !== '\t') || c === '\u007f');
}

/** The request as written: through fetch, or on a socket when fetch would refuse or change a header. */
function send(c: PayCase): Promise<ApiResponse> {
  const key: Record<string, string> =
    c.idempotencyKey === undefined ? {} : { 'idempotency-key': c.idempotencyKey };
  if (c.idempotencyKey !== undefined && fetchRefuses(c.idempotencyKey)) {
    tally.raw++;
    return rawPost(
      system.gatewayUrl,
      '/v1/pay',
      { 'x-api-key': tenant.apiKey, 'content-type': c.contentType, ...key },
      c.text,
    );
  }
  return call(system.gatewayUrl, '/v1/pay', {
    apiKey: tenant.apiKey,
    body: c.text,
    contentType: c.contentType,
    headers: key,
  });
}

/** What is wrong with a 200: an amount paid that the request did not write, anywhere it is kept. */
async function paidProblem(c: PayCase, res: ApiResponse): Promise<string | undefined> {
  const txn = res.json?.transaction as { id?: string; status?: string } | undefined;
  if (!txn?.id || !res.json?.instruction) return 'a 200 without transaction and instruction';
  const literals = answerAmountLiterals(res.text);
  const paid = literals.transaction === undefined ? undefined : exactMinorUnits(literals.transaction);
  if (paid === undefined)
    return `transaction amount ${literals.transaction} is no whole number of minor units`;
  if (literals.instruction === undefined || exactMinorUnits(literals.instruction) !== paid)
    return `instruction amount ${literals.instruction} is not the transaction's ${literals.transaction}`;
  const wrong = wrongAmount(c, paid, exactMinorUnits);
  if (wrong) return wrong;
  const { rows } = await db.query<{ amount_minor: string }>(
    'SELECT amount_minor::text FROM payout.transactions WHERE id = $1',
    [txn.id],
  );
  if (rows[0]?.amount_minor !== paid.toString())
    return `payout.transactions has ${rows[0]?.amount_minor ?? 'no row'} for ${txn.id}, the answer ${paid}`;
  count(tally.byTransactionStatus, String(txn.status));
  tally.paid.push({ id: txn.id, minor: paid, status: String(txn.status), request: describePayCase(c) });
  return undefined;
}

/** Why an answer breaks the stage's rules, or undefined when it keeps them. */
async function answerProblem(c: PayCase, res: ApiResponse): Promise<string | undefined> {
  if (res.status >= 500) return `a ${res.status} answer`;
  if (res.status === 200) return paidProblem(c, res);
  if (res.status < 400) return `a ${res.status} answer (only 200 is a pay's success)`;
  const shape = errorBodyProblem(res, `${system.gatewayUrl}/docs`);
  if (shape) return `not the error body: ${shape}`;
  count(tally.byTag, `${res.status} ${String(res.json?._tag)}`);
  return undefined;
}

/**
 * What counts as the same defect: the broken rule (a 5xx by its status, anything else with its
 * numbers left out) and how the body was wrapped.
 * The first failure of a kind is shrunk and reported; later ones are counted and listed, and the
 * run goes on, so one frequent defect does not hide the others.
 */
function kindOf(problem: string, c: PayCase): string {
  const rule = /^a [0-9]{3} answer/.exec(problem)?.[0] ?? problem.replace(/[0-9]+/g, '#');
  return `${rule} | body ${c.wrap.kind}`;
}

/**
 * One case of fast-check run `run`: send it, tally the answer, and on a broken rule throw (for
 * fast-check to shrink) when this run found that kind first, else count it. The counterexample
 * prints the request (describePayCase), the error the answer.
 */
async function runCase(c: PayCase, run: string): Promise<void> {
  tally.requests++;
  let res: ApiResponse | undefined;
  let problem: string | undefined;
  try {
    res = await send(c);
    count(tally.byStatus, String(res.status));
    problem = await answerProblem(c, res);
  } catch (err) {
    if (!res) count(tally.byStatus, 'no answer');
    problem = `${res ? 'checking the answer failed' : 'no answer'}: ${(err as Error).message}`;
  }
  if (!problem) return;
  const kind = kindOf(problem, c);
  count(tally.byKind, kind);
  const finder = failureKinds.get(kind);
  if (!finder) failureKinds.set(kind, run);
  if (!finder || finder === run)
    throw new Error(`${problem}; answer: ${res?.status} ${res?.text.slice(0, 600) ?? ''}`);
  repeats.push(`${kind}\n${describePayCase(c)}`);
}

function summary(seconds: number): string {
  const rows: [string, string][] = [
    ['cases', String(tally.cases)],
    ['requests (shrinking included)', String(tally.requests)],
    ['  on a raw socket', String(tally.raw)],
    ...[...tally.byStatus].sort().map(([status, n]): [string, string] => [`answers ${status}`, String(n)]),
    ['paid (200)', String(tally.paid.length)],
    ['  payouts at the partner, amount checked', String(tally.atPartner)],
    ['  not submitted to the partner', String(tally.notAtPartner)],
    ...[...tally.byTransactionStatus]
      .sort()
      .map(([status, n]): [string, string] => [`  transaction ${status}`, String(n)]),
    ...[...tally.byTag]
      .sort((a, b) => b[1] - a[1])
      .map(([tag, n]): [string, string] => [`  refused ${tag}`, String(n)]),
    ['failures reported (shrunk)', String(reports.length)],
    ['  repeats of a reported kind', String(repeats.length)],
    ...[...tally.byKind].map(([kind, n]): [string, string] => [`  ${kind}`, String(n)]),
    ['time', `${seconds.toFixed(1)} s (${(tally.requests / seconds).toFixed(1)} requests/s)`],
    ['seed', `FUZZ_SEED=${SEED}`],
    ['run again', RERUN],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return ['fuzz summary', ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`)].join('\n');
}

/**
 * The paid transactions whose payout at the simulator is not for the amount paid, or missing though
 * the answer said the partner had it.
 */
async function partnerAmountProblems(): Promise<string[]> {
  const problems: string[] = [];
  const queue = [...tally.paid];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const res = await fetch(
        `${system.partnerSimUrl}/v1/payouts?idempotency_key=${encodeURIComponent(next.id)}`,
        { headers: { authorization: `Bearer ${SIM_API_KEY}` }, signal: AbortSignal.timeout(10_000) },
      );
      if (res.status === 404) {
        // Only a payout that failed or was not yet submitted when answered can be missing there.
        tally.notAtPartner++;
        if (next.status !== 'failed' && next.status !== 'pending')
          problems.push(
            `${next.id}: answered ${next.status}, but the partner has no payout\n${next.request}`,
          );
        continue;
      }
      tally.atPartner++;
      const payout = (await res.json()) as { amount?: { amount_minor?: string } };
      if (payout.amount?.amount_minor !== next.minor.toString())
        problems.push(
          `${next.id}: the partner was sent ${payout.amount?.amount_minor}, the answer said ${next.minor}\n${next.request}`,
        );
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return problems;
}

/** Where a run's k-th fast-check run of slot `slot` starts: apart from every other slot's and run's. */
function seedOf(slot: number, k: number): number {
  return (SEED + 7919 * (slot + IN_FLIGHT * k)) % SEEDS;
}

/**
 * `budget` cases in fast-check runs one after another: a run that fails is reported (shrunk), and
 * the next starts with a new seed on what is left.
 */
async function fuzzSlot(slot: number, budget: number, cases: fc.Arbitrary<PayCase>): Promise<void> {
  let left = budget;
  for (let k = 0; left > 0; k++) {
    const run = `${slot}/${k}`;
    const details = await fc.check(
      fc.asyncProperty(cases, (c) => runCase(c, run)),
      { numRuns: left, seed: seedOf(slot, k), includeErrorInReport: true },
    );
    tally.cases += details.numRuns;
    left -= Math.max(1, details.numRuns);
    if (details.failed) reports.push(failureReport(details));
  }
}

/** fast-check's report of a failed run, with the command that replays its shrunk case alone. */
function failureReport(details: fc.RunDetails<[PayCase]>): string {
  const replay = `FUZZ_REPLAY='${details.seed}:${details.counterexamplePath ?? ''}' ${JEST_COMMAND}`;
  return `${fc.defaultReportMessage(details) ?? `failed: seed ${details.seed}`}\nthis case alone: ${replay}`;
}

/** The run: every case sent and checked, then the partner's payouts; throws what went wrong. */
async function fuzzRun(): Promise<void> {
  const simHost = new URL(system.partnerSimUrl).host;
  const cases = payCaseArb(qrCaseArb(testKitBases(), charges, simHost));
  const started = performance.now();
  if (REPLAY) {
    const details = await fc.check(
      fc.asyncProperty(cases, (c) => runCase(c, 'replay')),
      { ...REPLAY, endOnFailure: true, includeErrorInReport: true },
    );
    tally.cases = details.numRuns;
    if (details.failed) reports.push(failureReport(details));
  } else {
    const budget = (slot: number) => Math.floor(CASES / IN_FLIGHT) + (slot < CASES % IN_FLIGHT ? 1 : 0);
    await Promise.all(Array.from({ length: IN_FLIGHT }, (_, slot) => fuzzSlot(slot, budget(slot), cases)));
  }
  const partner = await partnerAmountProblems();
  process.stdout.write(`${summary((performance.now() - started) / 1000)}\n`);
  // One failure, so it shows every report, the first repeats and the partner's view.
  if (reports.length > 0 || repeats.length > 0 || partner.length > 0)
    throw new Error(
      [
        `${reports.length} failure(s) reported (shrunk), ${repeats.length} repeat(s), ${partner.length} at the partner`,
        ...reports.map((report, i) => `--- report ${i + 1}\n${report}`),
        ...repeats.slice(0, 20).map((repeat, i) => `--- repeat ${i + 1}\n${repeat}`),
        ...partner.map((problem, i) => `--- partner ${i + 1}\n${problem}`),
      ].join('\n'),
    );
  if (!REPLAY && tally.paid.length === 0) throw new Error(`none of ${tally.cases} cases was paid`);
}

it('answers every generated pay without a 5xx, in the error body when refused, and pays only amounts written', async () => {
  try {
    await fuzzRun();
  } catch (err) {
    // Every failure names the command that runs the same cases again (docs/testing.md "Fuzz").
    const failure = err instanceof Error ? err : new Error(String(err));
    failure.message = `${failure.message}\nrun the same cases again: ${RERUN}`;
    throw failure;
  }
});
