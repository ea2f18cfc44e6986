// Each sandbox outcome of docs/api/sandbox.md "Test amounts" reaches its terminal
// state through the path it names, and each terminal transition yields exactly one event on
// payout.transaction-events.v1, read back here by a Kafka consumer of our own. Every deployable and
// the partner simulator run as separate processes against real PostgreSQL, Redis and Kafka, with
// tracing on (an OTLP receiver in the test): each event's traceparent is the pay's trace, and the
// span that settled the transaction later (a callback's, a poll's) links to it (docs/architecture.md
// "Traces"), which shows the path it took.
import { randomBytes } from 'node:crypto';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { testInfra } from '@qr-payout/test-kit/infra';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  SPAN_KIND_SERVER,
  type System,
  startOtlpReceiver,
  startSystem,
  type TestTenant,
} from './harness';
import { type ApiResponse, call, UUID } from './support/http';
import {
  PIX_E2E_ID,
  type PublicTransaction,
  payPix,
  publicViewOfEvent,
  simStats,
  specFieldsOf,
  TRACEPARENT,
} from './support/pay';
import {
  type ReceivedTransactionEvent,
  startTransactionEventReader,
  type TransactionEventReader,
} from './support/transaction-events';

jest.setTimeout(180_000);

// The slow settlement (…54), between the worker's polls (1 s, then 2 s, 4 s after each: at about
// 1, 3 and 7 s), so the callback at 5 s is what settles it, not a poll.
const SLOW_SETTLE_MS = 5_000;
// How long after the first event a duplicate would have shown up (the relay publishes within
// milliseconds of a commit, and retries within a second).
const DUPLICATE_WINDOW_MS = 3_000;
const APPLY_CALLBACK_SPAN = 'payout.payout.v1.PayoutService/ApplyPartnerCallback';
// POST /v1/pay is one payout call, Pay: resolve and execute under one key.
const PAY_SPAN = 'payout.payout.v1.PayoutService/Pay';
// The polling worker's span (services/payout/src/polling/worker.ts POLL_SPAN).
const POLL_SPAN = 'payout.poll_transaction';

let receiver: OtlpReceiver;
let system: System;
let tenant: TestTenant;
let reader: TransactionEventReader;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  reader = await startTransactionEventReader(testInfra.kafkaBrokers);
  system = await startSystem({
    otlpTracesUrl: receiver.tracesUrl,
    // Pay waits 2 s for a terminal state: the default outcome settles inside it, …54 does not.
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: String(SLOW_SETTLE_MS) },
    // Claims every 200 ms; the per-transaction backoff stays the default (first poll after 1 s).
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000', POLL_INTERVAL_MS: '200' } },
  });
  tenant = await system.createTenant(`e2e-outcomes-${randomBytes(4).toString('hex')}`, 1_000);
  // One pay first, so the proofs below do not run on cold connections and an unwarmed JIT; its
  // callback is awaited, so it cannot land inside a later test's count of callbacks.
  const warm = await pay(1);
  expect((warm.json?.transaction as PublicTransaction | undefined)?.status).toBe('completed');
  const deadline = Date.now() + 10_000;
  while ((await simStats(system.partnerSimUrl)).callbacks.delivered < 1 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 240_000);

afterAll(async () => {
  await reader?.stop();
  await system?.stop();
  await receiver?.close();
}, 60_000);

const pay = (amount: number): Promise<ApiResponse> => payPix(system.gatewayUrl, tenant.apiKey, amount);

async function readTransaction(id: string): Promise<PublicTransaction> {
  const res = await call(system.gatewayUrl, `/v1/transactions/${id}`, { apiKey: tenant.apiKey });
  expect(res.status).toBe(200);
  return res.json?.transaction as PublicTransaction;
}

async function terminal(id: string, timeoutMs = 20_000): Promise<PublicTransaction> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const txn = await readTransaction(id);
    if (txn.status === 'completed' || txn.status === 'failed' || Date.now() > deadline) return txn;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function payTerminal(amount: number) {
  const answer = await pay(amount);
  expect(answer.status).toBe(200);
  const answered = answer.json?.transaction as PublicTransaction;
  const settled = await terminal(answered.id);
  return { answered, settled };
}

/** The transaction's only event, after waiting out the window a duplicate would arrive in. */
async function onlyEventOf(txnId: string): Promise<ReceivedTransactionEvent> {
  await reader.waitForEvents(txnId, 15_000);
  await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS));
  const events = reader.eventsOf(txnId);
  expect(events).toHaveLength(1);
  return events[0]!;
}

/** Key, headers and every field the API shows: the event mirrors GET /v1/transactions/{id}. */
function expectEventMirrors(received: ReceivedTransactionEvent, txn: PublicTransaction, amountMinor: bigint) {
  const { event, headers, key } = received;
  const eventType = txn.status === 'completed' ? 'transaction.completed' : 'transaction.failed';
  expect(key).toBe(txn.id);
  expect(event.eventId).toMatch(UUID);
  expect(headers['event-id']).toBe(event.eventId);
  expect(headers['event-type']).toBe(eventType);
  expect(headers.traceparent).toMatch(TRACEPARENT);
  expect(event).toMatchObject({ eventType, schemaVersion: '1', tenantId: tenant.tenantId });
  expect(event.transaction?.tenantId).toBe(tenant.tenantId);
  expect(publicViewOfEvent(event)).toEqual(specFieldsOf(txn));
  expect(event.transaction?.amount).toMatchObject({ currency: 'BRL', amountMinor });
  // The transition's time: updated_at is the settling transaction's start (PostgreSQL's now()),
  // occurred_at payout's clock just before its commit, so they are close and in that order.
  const occurredAt = timestampDate(event.occurredAt!).getTime();
  expect(occurredAt - Date.parse(txn.updatedAt)).toBeGreaterThanOrEqual(-50);
  expect(occurredAt - Date.parse(txn.updatedAt)).toBeLessThan(5_000);
}

/** The spans (every process) of the trace the event's traceparent names. */
async function traceOf(received: ReceivedTransactionEvent, mustHold: (spans: ReceivedSpan[]) => boolean) {
  const traceId = TRACEPARENT.exec(received.headers.traceparent ?? '')?.[1];
  expect(traceId).toBeDefined();
  const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
  await receiver.waitFor(() => mustHold(inTrace()), 20_000).catch(() => undefined);
  return inTrace();
}

/**
 * The payout spans of other traces that link to the event's trace: what settled the transaction
 * after the pay (docs/architecture.md "Traces").
 */
async function settlersOf(received: ReceivedTransactionEvent) {
  const traceId = TRACEPARENT.exec(received.headers.traceparent ?? '')?.[1];
  expect(traceId).toBeDefined();
  const linking = () =>
    receiver.spans.filter(
      (span) =>
        span.service === 'payout' &&
        span.traceId !== traceId &&
        span.links.some((link) => link.traceId === traceId),
    );
  await receiver.waitFor(() => linking().length > 0, 20_000).catch(() => undefined);
  return linking();
}

const isServerSpan = (service: string, name: string) => (span: ReceivedSpan) =>
  span.service === service && span.kind === SPAN_KIND_SERVER && span.name === name;
const isPollSpan = (span: ReceivedSpan) => span.service === 'payout' && span.name === POLL_SPAN;

describe('sandbox outcomes end to end, each with exactly one Kafka event', () => {
  it('…51: failed at once, in the POST answer; the event was written in the pay call', async () => {
    const before = await simStats(system.partnerSimUrl);
    const { answered, settled } = await payTerminal(20.51);
    expect(answered).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'AC03', partnerStatus: 'RJCT' },
    });
    expect(settled).toEqual(answered);
    const received = await onlyEventOf(answered.id);
    expectEventMirrors(received, settled, 2051n);
    const spans = await traceOf(received, (s) => s.some(isServerSpan('payout', PAY_SPAN)));
    expect(spans.some(isServerSpan('payout', PAY_SPAN))).toBe(true);
    expect(spans.some(isServerSpan('payout', APPLY_CALLBACK_SPAN))).toBe(false);
    expect((await simStats(system.partnerSimUrl)).submissions[answered.id]).toBe(1);
    // The simulator also calls back for a rejection; wait for it, so the next test's count of
    // callbacks starts clean (the callback finds the transaction terminal: a no-op).
    const deadline = Date.now() + 10_000;
    while ((await simStats(system.partnerSimUrl)).callbacks.delivered === before.callbacks.delivered) {
      if (Date.now() > deadline) throw new Error('the rejection callback never arrived');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reader.eventsOf(answered.id)).toHaveLength(1);
  });

  it('…52 completed and …53 failed, only through polling: no callback; the poll links to the pay', async () => {
    const before = await simStats(system.partnerSimUrl);
    const [completed, failed] = await Promise.all([payTerminal(20.52), payTerminal(20.53)]);
    expect(completed.settled).toMatchObject({ status: 'completed', error: null });
    expect(completed.settled.result?.reference).toMatch(PIX_E2E_ID);
    expect(failed.settled).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'AM04', partnerStatus: 'RJCT' },
    });
    const [completedEvent, failedEvent] = await Promise.all([
      onlyEventOf(completed.answered.id),
      onlyEventOf(failed.answered.id),
    ]);
    expectEventMirrors(completedEvent, completed.settled, 2052n);
    expectEventMirrors(failedEvent, failed.settled, 2053n);
    // Nothing was sent back by the partner while they settled: the polling worker found out.
    const after = await simStats(system.partnerSimUrl);
    expect(after.callbacks).toEqual(before.callbacks);
    for (const { answered } of [completed, failed]) expect(after.submissions[answered.id]).toBe(1);
    // The event is in the pay's trace; the polling worker's round wrote it, in a trace of its own
    // that links to the pay's; no callback did.
    for (const received of [completedEvent, failedEvent]) {
      const spans = await traceOf(received, (s) => s.some(isServerSpan('payout', PAY_SPAN)));
      expect(spans.some(isServerSpan('payout', PAY_SPAN))).toBe(true);
      const settlers = await settlersOf(received);
      expect(settlers.length).toBeGreaterThan(0);
      expect(settlers.every(isPollSpan)).toBe(true);
    }
  });

  it('…54: processing in the POST answer, then completed through the partner callback', async () => {
    const before = await simStats(system.partnerSimUrl);
    const { answered, settled } = await payTerminal(20.54);
    expect(answered).toMatchObject({ status: 'processing', result: null, error: null });
    expect(settled).toMatchObject({ status: 'completed', error: null });
    expect(settled.result?.reference).toMatch(PIX_E2E_ID);
    const received = await onlyEventOf(answered.id);
    expectEventMirrors(received, settled, 2054n);
    const spans = await traceOf(received, (s) => s.some(isServerSpan('payout', PAY_SPAN)));
    expect(spans.some(isServerSpan('payout', PAY_SPAN))).toBe(true);
    // The callback's RPC, in the partner's own trace, settled it and links to the pay's.
    const settlers = await settlersOf(received);
    expect(settlers.length).toBe(1);
    expect(isServerSpan('payout', APPLY_CALLBACK_SPAN)(settlers[0]!)).toBe(true);
    const after = await simStats(system.partnerSimUrl);
    expect(after.callbacks.delivered).toBe(before.callbacks.delivered + 1);
    expect(after.submissions[answered.id]).toBe(1);
  });

  it('any other amount: completed through the partner callback within the POST answer', async () => {
    const before = await simStats(system.partnerSimUrl);
    const { answered, settled } = await payTerminal(20.1);
    expect(answered).toMatchObject({ status: 'completed', error: null });
    expect(settled).toEqual(answered);
    const received = await onlyEventOf(answered.id);
    expectEventMirrors(received, settled, 2010n);
    const spans = await traceOf(received, (s) => s.some(isServerSpan('payout', PAY_SPAN)));
    expect(spans.some(isServerSpan('payout', PAY_SPAN))).toBe(true);
    // The callback's RPC, in the partner's own trace, settled it and links to the pay's.
    const settlers = await settlersOf(received);
    expect(settlers.length).toBe(1);
    expect(isServerSpan('payout', APPLY_CALLBACK_SPAN)(settlers[0]!)).toBe(true);
    const after = await simStats(system.partnerSimUrl);
    expect(after.callbacks.delivered).toBe(before.callbacks.delivered + 1);
    expect(after.submissions[answered.id]).toBe(1);
  });
});
