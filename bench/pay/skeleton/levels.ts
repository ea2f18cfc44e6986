// The two levels of the pay skeleton (bench/README.md "pay": the floors): what its messages and
// its rows are. The processes, their calls and their statements are the same at both.
//   transport: raw JSON bytes over bare grpc-js, four tables with primary keys only.
//   contract:  what the fixed architecture and the features require, and nothing of our
//              code: our generated protobuf messages on every gRPC call (@bufbuild/protobuf
//              toBinary / fromBinary as grpc-js's serializers), and payout's own migrations
//              (services/payout/migrations, applied by platform's migrator into the skeleton's
//              schema), so every write keeps their indexes, unique keys, foreign keys, CHECKs and
//              the terminal-state trigger; the outbox payload is a TransactionEvent.
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { create, toBinary, toJsonString } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
import { migrate } from '@qr-payout/platform/db';
import { newId } from '@qr-payout/platform/ids';
import {
  AccountType,
  type DecodedQr,
  DecodedQrSchema,
  type DecodeRequest,
  DecodeRequestSchema,
  type DecodeResponse,
  DecodeResponseSchema,
  PointOfInitiation,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import {
  type ApplyPartnerCallbackRequest,
  ApplyPartnerCallbackRequestSchema,
  ApplyPartnerCallbackResponseSchema,
  InstructionSchema,
  type PayRequest,
  PayRequestSchema,
  type PayResponse,
  PayResponseSchema,
  TransactionResultSchema,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type pg from 'pg';
import {
  bufferOf,
  protobufMethod,
  rawMethod,
  SKELETON_DECODED_QR,
  type UnaryMethod,
} from '../../shared/skeleton';

export const SKELETON_LEVELS = ['transport', 'contract'] as const;
export type SkeletonLevelName = (typeof SKELETON_LEVELS)[number];

export const SCHEMA = 'bench_skeleton';
export const TOPIC = 'bench.skeleton.events.v1';
export const CHANNEL = 'bench_skeleton_outbox';
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PAYOUT_MIGRATIONS = path.resolve(__dirname, '../../../services/payout/migrations');

/** The body of POST /v1/pay, as the bench sends it (the system's pay: QR, amount, payer). */
export interface PayBody {
  qr_string: string;
  amount: number;
  payer_name: string;
  payer_account: string;
  payer_tax_id: string;
}

/** One pay as the front took it. */
export interface FrontPay {
  tenant: string;
  key: string;
  /** The raw body (the request fingerprint is its hash) and its parsed form. */
  raw: Buffer;
  body: PayBody;
}

/** The partner's callback body: its payout resource (docs/partner-protocol.md), settled. */
export interface PartnerCallback {
  id: string;
  /** Our transaction id, as we submitted it. */
  idempotency_key: string;
  status: string;
  reference: string;
  settled_at: string;
}

/** A statement and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** One pay in the store, from its Pay request to its answer. */
export interface StorePay {
  /** The transaction id: what the partner is told and calls back with. */
  id: string;
  amountMinor: string;
  /** The key, the instruction and the pending transaction, in one statement. */
  insert: Statement;
  /** The settle statement (terminal update, outbox event, NOTIFY) and the Settle answer. */
  settle(callback: PartnerCallback): { statement: Statement; answer: unknown };
  /** The Pay answer, once settled. */
  answer(): unknown;
}

// The messages cross the skeleton as `unknown`: each level knows its own (method signatures, so a
// level's typed parameters are accepted).
export interface SkeletonLevel {
  methods: {
    decode: UnaryMethod<unknown, unknown>;
    pay: UnaryMethod<unknown, unknown>;
    settle: UnaryMethod<unknown, unknown>;
  };
  /** Front: the decoder's request for the QR, the store's Pay request, the transaction it answered. */
  decodeRequest(qr: string): unknown;
  payRequest(pay: FrontPay, decodeAnswer: unknown): unknown;
  paidTransaction(payAnswer: unknown): { id: string; status: string };
  /** Front: the store's Settle request for a callback whose signature held. */
  settleRequest(callbackBody: Buffer): unknown;
  /** Decoder: the answer to a decode request. */
  decodeAnswer(request: unknown): unknown;
  /** Store: its tables, one pay, the callback a Settle request carries. */
  prepare(pool: pg.Pool): Promise<void>;
  openPay(request: unknown): StorePay;
  callbackOf(request: unknown): PartnerCallback;
  /** Relay: the columns it reads from outbox_events, and the Kafka message of one row. */
  relayColumns: string;
  relayMessage(row: Record<string, unknown>): { key: string; value: Buffer | string };
}

// ---------------------------------------------------------------- transport

const TRANSPORT_SCHEMA = `CREATE SCHEMA IF NOT EXISTS ${SCHEMA};
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
    WHERE published_at IS NULL;`;

// Key, instruction and pending transaction in one statement (ours writes them in one).
const TRANSPORT_INSERT = `WITH k AS (
    INSERT INTO ${SCHEMA}.idempotency_keys (tenant_id, key, transaction_id) VALUES ($1, $2, $3)
  ), i AS (
    INSERT INTO ${SCHEMA}.instructions (id, tenant_id, decoded, amount_minor, currency)
    VALUES ($4, $1, $5, $6, 'BRL')
  )
  INSERT INTO ${SCHEMA}.transactions (id, tenant_id, instruction_id, amount_minor, currency, status)
  VALUES ($3, $1, $4, $6, 'BRL', 'pending')`;

// The terminal update and its outbox event in one statement, the NOTIFY sent at its commit.
const TRANSPORT_SETTLE = `WITH t AS (
    UPDATE ${SCHEMA}.transactions SET status = 'completed', updated_at = now()
    WHERE id = $1 AND status = 'pending' RETURNING id, tenant_id, amount_minor, currency
  ), o AS (
    INSERT INTO ${SCHEMA}.outbox_events (payload)
    SELECT jsonb_build_object('type', 'transaction.completed', 'transaction_id', id, 'tenant_id', tenant_id,
      'amount_minor', amount_minor, 'currency', currency) FROM t
    RETURNING id
  )
  SELECT pg_notify('${CHANNEL}', '') FROM o`;

interface TransportPayRequest {
  tenant: string;
  key: string;
  amount: number;
  decoded: string;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const parsed = <T>(bytes: unknown) => JSON.parse((bytes as Buffer).toString()) as T;

const transport: SkeletonLevel = {
  methods: {
    decode: rawMethod('/skeleton.Decoder/Decode'),
    pay: rawMethod('/skeleton.Store/Pay'),
    settle: rawMethod('/skeleton.Store/Settle'),
  },
  decodeRequest: (qr) => Buffer.from(qr),
  payRequest: (pay, decoded: Buffer) =>
    json({ tenant: pay.tenant, key: pay.key, amount: pay.body.amount, decoded: decoded.toString() }),
  paidTransaction: (answer: Buffer) => ({ id: answer.toString(), status: 'completed' }),
  settleRequest: (body) => body,
  decodeAnswer: () => SKELETON_DECODED_QR,
  prepare: async (pool) => {
    await pool.query(TRANSPORT_SCHEMA);
  },
  openPay(request) {
    const { tenant, key, amount, decoded } = parsed<TransportPayRequest>(request);
    const id = `txn_${randomUUID()}`;
    const amountMinor = String(Math.round(amount * 100));
    return {
      id,
      amountMinor,
      insert: {
        text: TRANSPORT_INSERT,
        values: [tenant, key, id, `ins_${randomUUID()}`, decoded, amountMinor],
      },
      settle: () => ({ statement: { text: TRANSPORT_SETTLE, values: [id] }, answer: Buffer.alloc(0) }),
      answer: () => Buffer.from(id),
    };
  },
  callbackOf: (request) => parsed<PartnerCallback>(request),
  relayColumns: 'id, payload',
  relayMessage: (row) => {
    const payload = row.payload as { transaction_id: string };
    return { key: payload.transaction_id, value: JSON.stringify(payload) };
  },
};

// ---------------------------------------------------------------- contract

/** What our decoder answers for the bench's Pix QR (@qr-payout/test-kit/qrs PIX_WITHOUT_AMOUNT). */
const CONTRACT_DECODED: DecodedQr = create(DecodedQrSchema, {
  schemeId: 'BR.PIX',
  country: 'BR',
  currency: 'BRL',
  creditor: {
    name: 'PADARIA PAO QUENTE',
    account: '123e4567-e89b-42d3-a456-426614174000',
    accountType: AccountType.PIX_EVP,
    city: 'SAO PAULO',
    merchantCategoryCode: '5812',
  },
  confidence: 1,
  confidenceFactors: [
    { name: 'crc_valid', passed: true, weight: 0.2 },
    { name: 'mandatory_tags', passed: true, weight: 0.15 },
    { name: 'identifiers_valid', passed: true, weight: 0.2 },
    { name: 'known_identifier', passed: true, weight: 0.15 },
    { name: 'country_currency_consistent', passed: true, weight: 0.15 },
    { name: 'account_in_clear', passed: true, weight: 0.15 },
  ],
  pointOfInitiation: PointOfInitiation.STATIC,
  rail: 'pix',
  references: { txid: 'E2EOUT1', pix_key_type: 'evp' },
});

// payout's tables, written with the columns they require (NOT NULL without a default) and valid
// values; the key, the instruction and the pending transaction in one statement, as payout's pay.
const CONTRACT_INSERT = `WITH k AS (
    INSERT INTO ${SCHEMA}.idempotency_keys (tenant_id, key, request_fingerprint, transaction_id, expires_at)
    VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
  ), i AS (
    INSERT INTO ${SCHEMA}.instructions (id, tenant_id, scheme_id, country, rail, decoded,
      amount_currency, amount_minor, pay_currency, pay_amount_minor)
    VALUES ($6, $1, $7, $8, $9, $10, $11, $12, $11, $12)
  )
  INSERT INTO ${SCHEMA}.transactions (id, tenant_id, instruction_id, scheme_id, rail, status,
    amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account, payer_tax_id)
  VALUES ($4, $1, $6, $7, $9, 'pending', $11, $12, $11, $12, $13, $14, $15)`;

// Completed with its result (the CHECK wants both), the event appended, the NOTIFY at commit.
const CONTRACT_SETTLE = `WITH t AS (
    UPDATE ${SCHEMA}.transactions
       SET status = 'completed', partner_payout_id = $2, result_reference = $3, result_settled_at = $4,
           updated_at = $5
     WHERE id = $1 AND status IN ('pending', 'processing')
     RETURNING id
  ), o AS (
    INSERT INTO ${SCHEMA}.outbox_events (event_id, event_type, topic, message_key, payload)
    SELECT $6, 'transaction.completed', '${TOPIC}', id, $7 FROM t
    RETURNING id
  )
  SELECT pg_notify('${CHANNEL}', '') FROM o`;

const contract: SkeletonLevel = {
  methods: {
    decode: protobufMethod(
      '/payout.decoder.v1.DecoderService/Decode',
      DecodeRequestSchema,
      DecodeResponseSchema,
    ),
    pay: protobufMethod('/payout.payout.v1.PayoutService/Pay', PayRequestSchema, PayResponseSchema),
    settle: protobufMethod(
      '/payout.payout.v1.PayoutService/ApplyPartnerCallback',
      ApplyPartnerCallbackRequestSchema,
      ApplyPartnerCallbackResponseSchema,
    ),
  },
  decodeRequest: (qr) => create(DecodeRequestSchema, { qrString: qr }),
  payRequest: (pay, answer: DecodeResponse) =>
    create(PayRequestSchema, {
      tenantId: pay.tenant,
      decoded: answer.decoded,
      amount: { currency: answer.decoded?.currency, amountMinor: BigInt(Math.round(pay.body.amount * 100)) },
      payer: { name: pay.body.payer_name, account: pay.body.payer_account, taxId: pay.body.payer_tax_id },
      idempotencyKey: pay.key,
      requestFingerprint: createHash('sha256').update(pay.raw).digest('hex'),
      waitMs: 5_000,
    }),
  paidTransaction: ({ transaction }: PayResponse) => {
    if (!transaction) throw new Error('Pay answered no transaction');
    return { id: transaction.id, status: (TransactionStatus[transaction.status] ?? '').toLowerCase() };
  },
  settleRequest: (body) => create(ApplyPartnerCallbackRequestSchema, { rail: 'pix', payload: body }),
  decodeAnswer: (_request: DecodeRequest) => create(DecodeResponseSchema, { decoded: CONTRACT_DECODED }),
  prepare: async (pool) => {
    await migrate(pool, { schema: SCHEMA, dir: PAYOUT_MIGRATIONS });
  },
  openPay(request: PayRequest): StorePay {
    const { tenantId, decoded, amount, payer } = request;
    if (!decoded || !amount || !payer) throw new Error('Pay request without decoded, amount or payer');
    const now = timestampNow();
    const transaction = create(TransactionSchema, {
      id: newId('txn'),
      tenantId,
      instructionId: newId('ins'),
      status: TransactionStatus.PENDING,
      rail: decoded.rail,
      createdAt: now,
      updatedAt: now,
      amount,
      payAmount: amount,
      callbackUrl: request.callbackUrl,
      schemeId: decoded.schemeId,
      country: decoded.country,
      creditor: decoded.creditor,
    });
    const { id, instructionId } = transaction;
    const amountMinor = amount.amountMinor.toString();
    return {
      id,
      amountMinor,
      insert: {
        text: CONTRACT_INSERT,
        values: [
          tenantId,
          request.idempotencyKey,
          request.requestFingerprint,
          id,
          IDEMPOTENCY_TTL_MS,
          instructionId,
          decoded.schemeId,
          decoded.country,
          decoded.rail,
          toJsonString(DecodedQrSchema, decoded),
          amount.currency,
          amountMinor,
          payer.name,
          payer.account,
          payer.taxId,
        ],
      },
      settle(callback) {
        // The event occurs as the row is updated: one instant for both.
        const occurredAt = timestampNow();
        const settledAt = timestampFromDate(new Date(callback.settled_at));
        transaction.status = TransactionStatus.COMPLETED;
        transaction.updatedAt = occurredAt;
        transaction.result = create(TransactionResultSchema, { reference: callback.reference, settledAt });
        const eventId = randomUUID();
        const eventType = 'transaction.completed';
        const event = create(TransactionEventSchema, {
          eventId,
          eventType,
          schemaVersion: '1',
          occurredAt,
          tenantId,
          transaction,
        });
        return {
          statement: {
            text: CONTRACT_SETTLE,
            values: [
              id,
              callback.id,
              callback.reference,
              timestampDate(settledAt),
              timestampDate(transaction.updatedAt),
              eventId,
              bufferOf(toBinary(TransactionEventSchema, event)),
            ],
          },
          answer: create(ApplyPartnerCallbackResponseSchema, { transaction }),
        };
      },
      answer: () =>
        create(PayResponseSchema, {
          instruction: create(InstructionSchema, {
            id: instructionId,
            tenantId,
            decoded,
            amount,
            payAmount: amount,
            createdAt: now,
            transactionId: id,
          }),
          transaction,
        }),
    };
  },
  callbackOf: ({ payload }: ApplyPartnerCallbackRequest) =>
    JSON.parse(bufferOf(payload).toString()) as PartnerCallback,
  relayColumns: 'id, message_key, payload',
  relayMessage: (row) => ({ key: row.message_key as string, value: row.payload as Buffer }),
};

export const LEVELS: Record<SkeletonLevelName, SkeletonLevel> = { transport, contract };

export function skeletonLevel(name: string | undefined): SkeletonLevelName {
  const level = name ?? 'transport';
  if (!(SKELETON_LEVELS as readonly string[]).includes(level))
    throw new Error(`SKELETON_LEVEL must be one of ${SKELETON_LEVELS.join(', ')}, not ${level}`);
  return level as SkeletonLevelName;
}
