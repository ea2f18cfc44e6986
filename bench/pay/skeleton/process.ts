// The pay skeleton (bench/README.md "pay": the floors): the least a pay can cost on this machine in
// this architecture, as five processes shaped like ours and doing none of our work, at one of two
// levels (SKELETON_LEVEL, ./levels.ts): `transport` (raw JSON bytes, tables with primary keys only)
// or `contract` (our generated protobuf messages on every gRPC call, payout's own tables).
//   front:    node:http (the gateway). POST /v1/pay: parse the JSON body, one Redis script call
//             (the limiter's one per request), the idempotency record taken (SET NX), gRPC Decode to
//             decoder and Pay to store (as the gateway decodes and then pays), the answer stored on
//             the record, answer the transaction.
//             POST /partner/callback: check the HMAC-SHA256 signature, gRPC Settle to store, 204.
//   decoder:  bare @grpc/grpc-js unary answering a fixed decoded QR.
//   store:    bare @grpc/grpc-js (payout). Pay: one statement writing the idempotency key, the
//             instruction and the pending transaction, POST the payout to the partner, wait for
//             its Settle. Settle: one statement updating the transaction to completed and
//             appending its outbox event with a NOTIFY. A relay LISTENs, lingers 25 ms, and in one
//             database transaction locks the unpublished events, produces them to Kafka (idempotent
//             producer, acks -1, as ours) and marks them published: 6 rows per pay, as ours.
//   partner:  node:http, answers 202 and calls the front back SETTLE_MS later (not counted).
//   consumer: a kafkajs consumer group reading the topic and doing nothing with it (stands for the
//             webhook service's consumer, not counted: its fetches are Kafka's cost, as in ours).
// No auth, validation, state machine, tracing or logging: whatever our system spends beyond this is
// ours to cut; what this spends is the floor of the transports, the serialization and the stores.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { status as grpcStatus, type handleUnaryCall } from '@grpc/grpc-js';
import Redis from 'ioredis';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import pg from 'pg';
import { postJson } from '../../shared/post-json';
import { serveUnary, type UnaryMethod, unaryClient, unaryHandler } from '../../shared/skeleton';
import {
  CHANNEL,
  LEVELS,
  type PayBody,
  SCHEMA,
  type SkeletonLevel,
  type StorePay,
  skeletonLevel,
  TOPIC,
} from './levels';

const TENANT = 'ten_skeleton';
// Partners sign their callbacks; the front verifies them as the gateway does.
const CALLBACK_SECRET = 'bench-skeleton-callback-secret';
const SIGNATURE_HEADER = 'x-skeleton-signature';
const SETTLE_WAIT_MS = 5_000;
const LINGER_MS = 25;
const BATCH = 500;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: http.ServerResponse, status: number, body?: string): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const sign = (body: Buffer | string) => createHmac('sha256', CALLBACK_SECRET).update(body).digest('hex');

function decoder(port: number, level: SkeletonLevel): void {
  serveUnary(port, [
    unaryHandler(level.methods.decode, (call, callback) => callback(null, level.decodeAnswer(call.request))),
  ]);
}

function front(
  port: number,
  decoderPort: number,
  storePort: number,
  redisUrl: string,
  level: SkeletonLevel,
): void {
  const decode = unaryClient(decoderPort);
  const store = unaryClient(storePort);
  const redis = new Redis(redisUrl);
  // One script call per request, like the gateway's limiter: a fixed window per tenant.
  redis.defineCommand('skeletonLimit', {
    numberOfKeys: 1,
    lua: "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n",
  });
  const limit = (key: string) =>
    (redis as unknown as { skeletonLimit(key: string, ms: number): Promise<number> }).skeletonLimit(
      key,
      60_000,
    );
  const limitKey = `bench:skeleton:${process.pid}:rl:${TENANT}`;
  // The contract's idempotency (docs/api/idempotency.md "The Idempotency-Key": a repeat
  // gets the cached answer, a concurrent one 409) needs a shared record per key: taken before the
  // pay, the answer stored after it, two more round trips, as the gateway makes them.
  const begin = (key: string) => redis.set(key, 'running', 'PX', IDEMPOTENCY_TTL_MS, 'NX');
  const complete = (key: string, body: string) => redis.set(key, body, 'PX', IDEMPOTENCY_TTL_MS);

  async function pay(req: http.IncomingMessage, res: http.ServerResponse) {
    const raw = await readBody(req);
    const body = JSON.parse(raw.toString()) as PayBody;
    await limit(limitKey);
    const key = String(req.headers['idempotency-key'] ?? randomUUID());
    const record = `bench:skeleton:idem:${TENANT}:${key}`;
    if ((await begin(record)) === null) return answer(res, 409, '{"error":"IdempotencyInProgress"}');
    // The gateway decodes, then pays with the decoded QR.
    const decoded = await decode(level.methods.decode, level.decodeRequest(body.qr_string), 5_000);
    const request = level.payRequest({ tenant: TENANT, key, raw, body }, decoded);
    const transaction = level.paidTransaction(await store(level.methods.pay, request, 10_000));
    const text = JSON.stringify({ transaction });
    await complete(record, text);
    answer(res, 200, text);
  }

  async function callback(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readBody(req);
    const given = Buffer.from(String(req.headers[SIGNATURE_HEADER] ?? ''), 'hex');
    const expected = Buffer.from(sign(body), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(res, 401, '{}');
    await store(level.methods.settle, level.settleRequest(body), 5_000);
    answer(res, 204);
  }

  http
    .createServer((req, res) => {
      if (req.method === 'GET') return answer(res, 200, '{"status":"ok"}');
      const handler = req.url === '/partner/callback' ? callback : pay;
      handler(req, res).catch((err: unknown) => answer(res, 500, JSON.stringify({ error: String(err) })));
    })
    .listen(port, '127.0.0.1');
}

function kafkaOf(brokers: string, clientId: string): Kafka {
  return new Kafka({ brokers: brokers.split(','), clientId, logLevel: logLevel.WARN });
}

// One partition, as the system's payout.transaction-events.v1 has here (the broker creates it).
async function ensureTopic(kafka: Kafka): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: TOPIC, numPartitions: 1 }] });
  } finally {
    await admin.disconnect();
  }
}

async function store(
  port: number,
  partnerPort: number,
  env: { databaseUrl: string; brokers: string },
  level: SkeletonLevel,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
  await level.prepare(pool);
  const kafka = kafkaOf(env.brokers, 'skeleton-store');
  await ensureTopic(kafka);
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  startRelay(pool, producer, env.databaseUrl, level);

  const partnerAgent = new http.Agent({ keepAlive: true });
  const partnerUrl = new URL(`http://127.0.0.1:${partnerPort}/payouts`);
  const waiters = new Map<string, { pay: StorePay; settled: () => void }>();

  async function pay(request: unknown): Promise<unknown> {
    const pending = level.openPay(request);
    const { id } = pending;
    await pool.query(pending.insert);
    // Waiting before the partner is called: its callback may come back before its answer.
    const settled = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        reject(new Error(`not settled within ${SETTLE_WAIT_MS} ms`));
      }, SETTLE_WAIT_MS);
      waiters.set(id, {
        pay: pending,
        settled: () => {
          clearTimeout(timer);
          waiters.delete(id);
          resolve();
        },
      });
    });
    settled.catch(() => undefined);
    const { status } = await postJson(
      partnerAgent,
      partnerUrl,
      JSON.stringify({ transaction_id: id, amount_minor: pending.amountMinor, currency: 'BRL', rail: 'pix' }),
      { timeoutMs: SETTLE_WAIT_MS },
    );
    if (status !== 202) throw new Error(`partner answered ${status}`);
    await settled;
    return pending.answer();
  }

  async function settle(request: unknown): Promise<unknown> {
    const callback = level.callbackOf(request);
    const waiter = waiters.get(callback.idempotency_key);
    if (!waiter) throw new Error(`no pay waits for ${callback.idempotency_key}`);
    const { statement, answer } = waiter.pay.settle(callback);
    await pool.query(statement);
    waiter.settled();
    return answer;
  }

  const unary =
    (fn: (request: unknown) => Promise<unknown>): handleUnaryCall<unknown, unknown> =>
    (call, callback) =>
      fn(call.request).then(
        (response) => callback(null, response),
        (err: Error) => callback({ code: grpcStatus.INTERNAL, details: err.message }),
      );
  const served = (method: UnaryMethod<unknown, unknown>, fn: (request: unknown) => Promise<unknown>) =>
    unaryHandler(method, unary(fn));
  serveUnary(port, [served(level.methods.pay, pay), served(level.methods.settle, settle)]);
}

/**
 * The outbox relay's shape (bench/README.md "pay"): woken by NOTIFY, it lingers so events committing
 * together share a round, then locks, produces and marks them in one database transaction.
 */
function startRelay(
  pool: pg.Pool,
  producer: ReturnType<Kafka['producer']>,
  databaseUrl: string,
  level: SkeletonLevel,
): void {
  let woken = false;
  let running = false;

  async function round(): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Record<string, unknown> & { id: string }>(
        `SELECT ${level.relayColumns} FROM ${SCHEMA}.outbox_events WHERE published_at IS NULL
         ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (rows.length > 0) {
        await producer.send({ topic: TOPIC, acks: -1, messages: rows.map(level.relayMessage) });
        await client.query(`UPDATE ${SCHEMA}.outbox_events SET published_at = now() WHERE id = ANY($1)`, [
          rows.map((row) => row.id),
        ]);
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async function loop(): Promise<void> {
    running = true;
    try {
      while (woken) {
        woken = false;
        await sleep(LINGER_MS);
        // A full batch: more are probably due, go again.
        if ((await round()) === BATCH) woken = true;
      }
    } catch (err) {
      console.error('relay round failed', err);
    } finally {
      running = false;
    }
  }

  const listener = new pg.Client({ connectionString: databaseUrl });
  listener.on('notification', () => {
    woken = true;
    if (!running) void loop();
  });
  void listener.connect().then(() => listener.query(`LISTEN ${CHANNEL}`));
}

// The partner's settled payout resource (docs/partner-protocol.md), with a Pix end-to-end id.
function settledPayout(transactionId: string, amountMinor: string, acceptedAt: Date): string {
  const now = new Date();
  const minute = now.toISOString().slice(0, 16).replace(/[-T:]/g, '');
  return JSON.stringify({
    id: `pp_${randomUUID().replaceAll('-', '')}`,
    idempotency_key: transactionId,
    rail: 'pix',
    amount: { currency: 'BRL', amount_minor: amountMinor },
    status: 'ACSC',
    reason_code: null,
    reason: null,
    reference: `E99999999${minute}${randomUUID().replaceAll('-', '').slice(0, 11)}`,
    created_at: acceptedAt.toISOString(),
    settled_at: now.toISOString(),
  });
}

function partner(port: number, frontPort: number, settleMs: number): void {
  const agent = new http.Agent({ keepAlive: true });
  const callbackUrl = new URL(`http://127.0.0.1:${frontPort}/partner/callback`);
  http
    .createServer((req, res) => {
      readBody(req).then((body) => {
        const { transaction_id, amount_minor } = JSON.parse(body.toString()) as {
          transaction_id: string;
          amount_minor: string;
        };
        const acceptedAt = new Date();
        answer(res, 202, '{"status":"accepted"}');
        setTimeout(() => {
          const callback = settledPayout(transaction_id, amount_minor, acceptedAt);
          postJson(agent, callbackUrl, callback, {
            headers: { [SIGNATURE_HEADER]: sign(callback) },
            timeoutMs: SETTLE_WAIT_MS,
          }).catch((err: unknown) => console.error('callback failed', err));
        }, settleMs);
      }, console.error);
    })
    .listen(port, '127.0.0.1');
}

async function consumer(brokers: string, groupId: string): Promise<void> {
  const kafka = kafkaOf(brokers, 'skeleton-consumer');
  await ensureTopic(kafka);
  // The webhook service's production session timeout (30 s, a heartbeat every third of it, as
  // platform's bus sets it), as the system under the bench runs it.
  const group = kafka.consumer({ groupId, sessionTimeout: 30_000, heartbeatInterval: 10_000 });
  group.on(group.events.GROUP_JOIN, () => console.log('consumer joined'));
  await group.connect();
  await group.subscribe({ topic: TOPIC, fromBeginning: false });
  // Nothing done with the messages; kafkajs commits the offsets after every batch, as ours does.
  await group.run({ eachBatch: async () => {} });
  // Leaving the group at once spares the next run's group a rebalance wait on the shared broker.
  process.once('SIGTERM', () => void group.disconnect().finally(() => process.exit(0)));
}

const [role, ...args] = process.argv.slice(2);
const [frontPort, decoderPort, storePort, partnerPort] = args.map(Number) as [number, number, number, number];
const env = process.env;
const level = LEVELS[skeletonLevel(env.SKELETON_LEVEL)];
const fail = (err: unknown) => {
  console.error(err);
  process.exit(1);
};
if (role === 'decoder') decoder(decoderPort, level);
else if (role === 'front') front(frontPort, decoderPort, storePort, env.REDIS_URL ?? '', level);
else if (role === 'store')
  store(
    storePort,
    partnerPort,
    { databaseUrl: env.DATABASE_URL ?? '', brokers: env.KAFKA_BROKERS ?? '' },
    level,
  ).catch(fail);
else if (role === 'partner') partner(partnerPort, frontPort, Number(env.SETTLE_MS ?? 2));
else if (role === 'consumer')
  consumer(env.KAFKA_BROKERS ?? '', env.CONSUMER_GROUP ?? 'bench-skeleton').catch(fail);
else throw new Error(`unknown skeleton role ${role}`);
