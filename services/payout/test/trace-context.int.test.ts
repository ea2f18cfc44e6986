// One pay, one trace (docs/architecture.md "Traces"), against real PostgreSQL: the pay's insert
// stores its W3C context with the transaction, a settlement written later in another trace puts
// that context in the outbox event's headers, and the settling span links to it; a row stored
// without one (telemetry off at the pay) keeps the settling span's context and gets no link.
import { randomUUID } from 'node:crypto';
import { type Span, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { newId } from '@qr-payout/platform/ids';
import { silentLogger } from '@qr-payout/platform/log';
import { shutdownTelemetry, startTelemetry } from '@qr-payout/platform/telemetry';
import type pg from 'pg';
import type { LiveTransaction } from '../src/execution/records';
import { createSettlement } from '../src/execution/settlement';
import { createSettlementSignals } from '../src/execution/settlement-signals';
import { createExecutionStore, type ExecutionStore } from '../src/execution/store';
import { tenant } from './fixtures';
import { migratedSchema } from './support/outbox';

jest.setTimeout(60_000);

const exporter = new InMemorySpanExporter();
const tracer = () => trace.getTracer('trace-context-test');
let pool: pg.Pool;
let store: ExecutionStore;
let drop: () => Promise<void>;

beforeAll(async () => {
  startTelemetry({ serviceName: 'payout-trace-test', spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const created = await migratedSchema();
  ({ pool, drop } = created);
  store = createExecutionStore(pool);
});

afterAll(async () => {
  await drop?.();
  await shutdownTelemetry();
});

/** A pending transaction inserted as execute does, with `inSpan` active or outside any trace. */
async function insertPending(inSpan: boolean): Promise<{ row: LiveTransaction; paySpan?: Span }> {
  const tenantId = tenant();
  const instructionId = newId('ins');
  await pool.query(
    `INSERT INTO instructions (id, tenant_id, scheme_id, country, rail, decoded,
       amount_currency, amount_minor, pay_currency, pay_amount_minor)
     VALUES ($1, $2, 'BR.PIX', 'BR', 'pix', '{"schemeId":"BR.PIX"}', 'BRL', 2052, 'BRL', 2052)`,
    [instructionId, tenantId],
  );
  const instruction = (await store.findExecutableInstruction(tenantId, instructionId))!;
  const insert = () =>
    store.insertPendingTransaction(
      {
        id: newId('txn'),
        instruction,
        chargeKey: null,
        payer: {
          name: 'Ana Souza',
          account: '0001-12345-6',
          taxId: '12345678909',
          country: null,
          idType: null,
        },
        callbackUrl: null,
      },
      { key: randomUUID(), fingerprint: 'fp', ttlMs: 60_000 },
      30_000,
    );
  if (!inSpan) {
    const outcome = await insert();
    if (outcome.kind !== 'inserted') throw new Error(`not inserted: ${outcome.kind}`);
    return { row: outcome.row };
  }
  return tracer().startActiveSpan('pay', async (paySpan) => {
    const outcome = await insert();
    paySpan.end();
    if (outcome.kind !== 'inserted') throw new Error(`not inserted: ${outcome.kind}`);
    return { row: outcome.row, paySpan };
  });
}

/** Settles the transaction as the polling worker does: under a root span of its own. */
async function settleInPoll(transactionId: string): Promise<Span> {
  const settlement = createSettlement({ store, signals: createSettlementSignals(), logger: silentLogger() });
  return tracer().startActiveSpan('poll', { root: true }, async (pollSpan) => {
    const settled = await settlement.applyPartnerOutcome(
      transactionId,
      { kind: 'completed', partnerPayoutId: 'po_1', reference: 'E2E', settledAt: new Date() },
      0,
    );
    pollSpan.end();
    expect(settled?.status).toBe('completed');
    return pollSpan;
  });
}

async function eventHeadersOf(transactionId: string): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ headers: Record<string, string> }>(
    'SELECT headers FROM outbox_events WHERE message_key = $1',
    [transactionId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.headers;
}

const exported = (span: Span) =>
  exporter.getFinishedSpans().find((s) => s.spanContext().spanId === span.spanContext().spanId)!;

it("stores the pay's context at the insert; a later settlement's event carries it and its span links to it", async () => {
  const { row, paySpan } = await insertPending(true);
  const pay = paySpan!.spanContext();
  expect(row.payTraceContext?.traceparent).toBe(`00-${pay.traceId}-${pay.spanId}-01`);
  const { rows } = await pool.query('SELECT traceparent FROM transactions WHERE id = $1', [row.id]);
  expect(rows[0].traceparent).toBe(row.payTraceContext?.traceparent);

  const pollSpan = await settleInPoll(row.id);
  expect(pollSpan.spanContext().traceId).not.toBe(pay.traceId);
  expect((await eventHeadersOf(row.id))['traceparent']).toBe(`00-${pay.traceId}-${pay.spanId}-01`);
  expect(exported(pollSpan).links.map((link) => link.context)).toEqual([
    expect.objectContaining({ traceId: pay.traceId, spanId: pay.spanId }),
  ]);
});

it('a row stored without a context (telemetry off at the pay): NULL columns, the event carries the settling span, no link', async () => {
  const { row } = await insertPending(false);
  expect(row.payTraceContext).toBeNull();
  const { rows } = await pool.query('SELECT traceparent, tracestate FROM transactions WHERE id = $1', [
    row.id,
  ]);
  expect(rows[0]).toEqual({ traceparent: null, tracestate: null });

  const pollSpan = await settleInPoll(row.id);
  const poll = pollSpan.spanContext();
  expect((await eventHeadersOf(row.id))['traceparent']).toBe(`00-${poll.traceId}-${poll.spanId}-01`);
  expect(exported(pollSpan).links).toEqual([]);
});
