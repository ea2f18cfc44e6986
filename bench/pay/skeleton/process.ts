// The pay skeleton (bench/README.md "pay", "the floor"): the least a pay can cost on this machine in
// this architecture, as five processes shaped like ours and doing none of our work.
//   front:    node:http (the gateway). POST /v1/pay: parse the JSON body, one Redis script call
//             (the limiter's one per request), the idempotency record taken (SET NX), gRPC Pay to
//             store, the answer stored on the record, answer the transaction.
//             POST /partner/callback: check the HMAC-SHA256 signature, gRPC Settle to store, 204.
//   decoder:  bare @grpc/grpc-js unary answering a fixed decoded QR.
//   store:    bare @grpc/grpc-js (payout). Pay: call decoder, one statement writing the idempotency
//             key, the instruction and the pending transaction, POST the payout to the partner,
//             wait for its Settle. Settle: one statement updating the transaction to completed and
//             appending its outbox event with a NOTIFY. A relay LISTENs, lingers 25 ms, and in one
//             database transaction locks the unpublished events, produces them to Kafka (idempotent
//             producer, acks -1, as ours) and marks them published: 6 rows per pay, as ours.
//   partner:  node:http, answers 202 and calls the front back SETTLE_MS later (not counted).
//   consumer: a kafkajs consumer group reading the topic and doing nothing with it (stands for the
//             webhook service's consumer, not counted: its fetches are Kafka's cost, as in ours).
// No auth, protobuf, validation, state machine, tracing or logging: whatever our system spends
// beyond this is ours to cut; what this spends is the floor of the transports and the stores.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { status as grpcStatus } from '@grpc/grpc-js';
import Redis from 'ioredis';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import pg from 'pg';
import { postJson } from '../../shared/post-json';
import {
  type BareUnaryHandler,
  bareUnaryClient,
  SKELETON_DECODED_QR,
  serveBareUnary,
} from '../../shared/skeleton';

const TENANT = 'ten_skeleton';
const TOPIC = 'bench.skeleton.events.v1';
const CHANNEL = 'bench_skeleton_outbox';
const SCHEMA = 'bench_skeleton';
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

function decoder(port: number): void {
  serveBareUnary(port, {
    '/skeleton.Decoder/Decode': (_call, callback) => callback(null, SKELETON_DECODED_QR),
  });
}

function front(port: number, storePort: number, redisUrl: string): void {
  const store = bareUnaryClient(storePort);
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
  // The contract's idempotency (docs/api-conventions.md "Execute, pay and idempotency": a repeat
  // gets the cached answer, a concurrent one 409) needs a shared record per key: taken before the
  // pay, the answer stored after it, two more round trips, as the gateway makes them.
  const begin = (key: string) => redis.set(key, 'running', 'PX', IDEMPOTENCY_TTL_MS, 'NX');
  const complete = (key: string, body: string) => redis.set(key, body, 'PX', IDEMPOTENCY_TTL_MS);

  async function pay(req: http.IncomingMessage, res: http.ServerResponse) {
    const { qr_string, amount } = JSON.parse((await readBody(req)).toString()) as {
      qr_string: string;
      amount: number;
    };
    await limit(limitKey);
    const key = String(req.headers['idempotency-key'] ?? randomUUID());
    const record = `bench:skeleton:idem:${TENANT}:${key}`;
    if ((await begin(record)) === null) return answer(res, 409, '{"error":"IdempotencyInProgress"}');
    const request = JSON.stringify({ tenant: TENANT, key, qr: qr_string, amount });
    const id = (await store('/skeleton.Store/Pay', Buffer.from(request), 10_000)).toString();
    const body = JSON.stringify({ transaction: { id, status: 'completed' } });
    await complete(record, body);
    answer(res, 200, body);
  }

  async function callback(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readBody(req);
    const given = Buffer.from(String(req.headers[SIGNATURE_HEADER] ?? ''), 'hex');
    const expected = Buffer.from(sign(body), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(res, 401, '{}');
    await store('/skeleton.Store/Settle', body, 5_000);
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

async function createSchema(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA};
    CREATE TABLE IF NOT EXISTS ${SCHEMA}.idempotency_keys (
      tenant_id text NOT NULL, key text NOT NULL, transaction_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (tenant_id, key));
    CREATE TABLE IF NOT EXISTS ${SCHEMA}.instructions (
      id text PRIMARY KEY, tenant_id text NOT NULL, decoded jsonb NOT NULL,
      amount_minor bigint NOT NULL, currency text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS ${SCHEMA}.transactions (
      id text PRIMARY KEY, tenant_id text NOT NULL, instruction_id text NOT NULL,
      amount_minor bigint NOT NULL, currency text NOT NULL, status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS ${SCHEMA}.outbox_events (
      id bigserial PRIMARY KEY, payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz);
    CREATE INDEX IF NOT EXISTS outbox_events_unpublished_idx ON ${SCHEMA}.outbox_events (id)
      WHERE published_at IS NULL;`);
}

// Key, instruction and pending transaction in one statement (ours writes its key and transaction
// in one, bench/README.md "pay").
const INSERT_PAY = `WITH k AS (
    INSERT INTO ${SCHEMA}.idempotency_keys (tenant_id, key, transaction_id) VALUES ($1, $2, $3)
  ), i AS (
    INSERT INTO ${SCHEMA}.instructions (id, tenant_id, decoded, amount_minor, currency)
    VALUES ($4, $1, $5, $6, 'BRL')
  )
  INSERT INTO ${SCHEMA}.transactions (id, tenant_id, instruction_id, amount_minor, currency, status)
  VALUES ($3, $1, $4, $6, 'BRL', 'pending')`;

// The terminal update and its outbox event in one statement, the NOTIFY sent at its commit.
const SETTLE = `WITH t AS (
    UPDATE ${SCHEMA}.transactions SET status = 'completed', updated_at = now()
    WHERE id = $1 AND status = 'pending' RETURNING id, tenant_id, amount_minor, currency
  ), o AS (
    INSERT INTO ${SCHEMA}.outbox_events (payload)
    SELECT jsonb_build_object('type', 'transaction.completed', 'transaction_id', id, 'tenant_id', tenant_id,
      'amount_minor', amount_minor, 'currency', currency) FROM t
    RETURNING id
  )
  SELECT pg_notify('${CHANNEL}', '') FROM o`;

async function store(
  port: number,
  decoderPort: number,
  partnerPort: number,
  env: { databaseUrl: string; brokers: string },
): Promise<void> {
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
  await createSchema(pool);
  const kafka = kafkaOf(env.brokers, 'skeleton-store');
  await ensureTopic(kafka);
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  startRelay(pool, producer, env.databaseUrl);

  const decode = bareUnaryClient(decoderPort);
  const partnerAgent = new http.Agent({ keepAlive: true });
  const partnerUrl = new URL(`http://127.0.0.1:${partnerPort}/payouts`);
  const waiters = new Map<string, () => void>();

  async function pay(request: Buffer): Promise<Buffer> {
    const { tenant, key, amount } = JSON.parse(request.toString()) as {
      tenant: string;
      key: string;
      amount: number;
    };
    const decoded = await decode('/skeleton.Decoder/Decode', request, 5_000);
    const id = `txn_${randomUUID()}`;
    await pool.query(INSERT_PAY, [
      tenant,
      key,
      id,
      `ins_${randomUUID()}`,
      decoded.toString(),
      Math.round(amount * 100),
    ]);
    // Waiting before the partner is called: its callback may come back before its answer.
    const settled = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        reject(new Error(`not settled within ${SETTLE_WAIT_MS} ms`));
      }, SETTLE_WAIT_MS);
      waiters.set(id, () => {
        clearTimeout(timer);
        waiters.delete(id);
        resolve();
      });
    });
    settled.catch(() => undefined);
    const { status } = await postJson(
      partnerAgent,
      partnerUrl,
      JSON.stringify({
        transaction_id: id,
        amount_minor: Math.round(amount * 100),
        currency: 'BRL',
        rail: 'pix',
      }),
      { timeoutMs: SETTLE_WAIT_MS },
    );
    if (status !== 202) throw new Error(`partner answered ${status}`);
    await settled;
    return Buffer.from(id);
  }

  async function settle(request: Buffer): Promise<Buffer> {
    const { transaction_id } = JSON.parse(request.toString()) as { transaction_id: string };
    await pool.query(SETTLE, [transaction_id]);
    waiters.get(transaction_id)?.();
    return Buffer.alloc(0);
  }

  const unary =
    (fn: (request: Buffer) => Promise<Buffer>): BareUnaryHandler =>
    (call, callback) =>
      fn(call.request).then(
        (response) => callback(null, response),
        (err: Error) => callback({ code: grpcStatus.INTERNAL, details: err.message }),
      );
  serveBareUnary(port, { '/skeleton.Store/Pay': unary(pay), '/skeleton.Store/Settle': unary(settle) });
}

/**
 * The outbox relay's shape (bench/README.md "pay"): woken by NOTIFY, it lingers so events committing
 * together share a round, then locks, produces and marks them in one database transaction.
 */
function startRelay(pool: pg.Pool, producer: ReturnType<Kafka['producer']>, databaseUrl: string): void {
  let woken = false;
  let running = false;

  async function round(): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: string; payload: { transaction_id: string } }>(
        `SELECT id, payload FROM ${SCHEMA}.outbox_events WHERE published_at IS NULL
         ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (rows.length > 0) {
        await producer.send({
          topic: TOPIC,
          acks: -1,
          messages: rows.map((row) => ({
            key: row.payload.transaction_id,
            value: JSON.stringify(row.payload),
          })),
        });
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

function partner(port: number, frontPort: number, settleMs: number): void {
  const agent = new http.Agent({ keepAlive: true });
  const callbackUrl = new URL(`http://127.0.0.1:${frontPort}/partner/callback`);
  http
    .createServer((req, res) => {
      readBody(req).then((body) => {
        const { transaction_id } = JSON.parse(body.toString()) as { transaction_id: string };
        answer(res, 202, '{"status":"accepted"}');
        setTimeout(() => {
          const callback = JSON.stringify({ transaction_id, status: 'completed' });
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
const fail = (err: unknown) => {
  console.error(err);
  process.exit(1);
};
if (role === 'decoder') decoder(decoderPort);
else if (role === 'front') front(frontPort, storePort, env.REDIS_URL ?? '');
else if (role === 'store')
  store(storePort, decoderPort, partnerPort, {
    databaseUrl: env.DATABASE_URL ?? '',
    brokers: env.KAFKA_BROKERS ?? '',
  }).catch(fail);
else if (role === 'partner') partner(partnerPort, frontPort, Number(env.SETTLE_MS ?? 2));
else if (role === 'consumer')
  consumer(env.KAFKA_BROKERS ?? '', env.CONSUMER_GROUP ?? 'bench-skeleton').catch(fail);
else throw new Error(`unknown skeleton role ${role}`);
