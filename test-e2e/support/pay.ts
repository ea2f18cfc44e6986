// What the money-path proofs (outcomes, crash, stuck) share: a payment of the test kit's Pix QR
// whose amount the request chooses (so the amount's last two digits pick the sandbox outcome,
// docs/api/sandbox.md "Test amounts") by its payer, and the shapes the gateway and the
// simulator answer.

import { randomUUID } from 'node:crypto';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { TransactionEvent } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import { type ApiResponse, call } from './http';

/**
 * POST /v1/pay of PIX_WITHOUT_AMOUNT for `amount` by PAYER, under a fresh Idempotency-Key; `extra`
 * adds body fields (e.g. `wallet_currency`, `callback_url`).
 */
export function payPix(
  gatewayUrl: string,
  apiKey: string,
  amount: number,
  extra: Record<string, unknown> = {},
): Promise<ApiResponse> {
  return call(gatewayUrl, '/v1/pay', {
    apiKey,
    body: JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount, ...PAYER, ...extra }),
    contentType: 'application/json',
    headers: { 'idempotency-key': randomUUID() },
  });
}

/**
 * The transaction as GET /v1/transactions/{id} and the pay answer show it
 * (docs/api/resources.md "Transactions").
 */
/** POST /v1/resolve of PIX_WITHOUT_AMOUNT for 10.00: what the metrics tests send with the decoder stopped. */
export function resolvePix(gatewayUrl: string, apiKey: string): Promise<ApiResponse> {
  return call(gatewayUrl, '/v1/resolve', {
    apiKey,
    body: JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: 10.0 }),
    contentType: 'application/json',
  });
}

export type PublicTransaction = {
  id: string;
  instructionId: string;
  status: string;
  rail: string;
  createdAt: string;
  updatedAt: string;
  result: { reference: string; settledAt: string | null } | null;
  error: { reason: string; code: string; partnerStatus: string } | null;
  statusHistory: { status: string; at: string }[];
};

export type SimStats = {
  submissions: Record<string, number>;
  requests: number;
  callbacks: { delivered: number; failed: number; dropped: number };
};

export async function simStats(partnerSimUrl: string): Promise<SimStats> {
  const res = await fetch(`${partnerSimUrl}/_sim/stats`, { signal: AbortSignal.timeout(5_000) });
  return (await res.json()) as SimStats;
}

const STATUS_NAMES: Partial<Record<TransactionStatus, string>> = {
  [TransactionStatus.PENDING]: 'pending',
  [TransactionStatus.PROCESSING]: 'processing',
  [TransactionStatus.COMPLETED]: 'completed',
  [TransactionStatus.FAILED]: 'failed',
};

/**
 * The event's transaction in the public API's terms, written out here rather than borrowed from the
 * gateway's presenter, so a test comparing it with GET /v1/transactions/{id} checks both sides.
 */
export function publicViewOfEvent(event: TransactionEvent): PublicTransaction {
  const txn = event.transaction;
  if (!txn) throw new Error(`event ${event.eventId} carries no transaction`);
  const iso = (ts: Parameters<typeof timestampDate>[0] | undefined) =>
    ts ? timestampDate(ts).toISOString() : '';
  return {
    id: txn.id,
    instructionId: txn.instructionId,
    status: STATUS_NAMES[txn.status] ?? `unknown(${txn.status})`,
    rail: txn.rail,
    createdAt: iso(txn.createdAt),
    updatedAt: iso(txn.updatedAt),
    result: txn.result
      ? {
          reference: txn.result.reference,
          settledAt: txn.result.settledAt ? iso(txn.result.settledAt) : null,
        }
      : null,
    error: txn.error
      ? { reason: txn.error.reason, code: txn.error.code, partnerStatus: txn.error.partnerStatus }
      : null,
    statusHistory: txn.statusHistory.map((change) => ({
      status: STATUS_NAMES[change.status] ?? `unknown(${change.status})`,
      at: iso(change.at),
    })),
  };
}

/**
 * The fields of a transaction as the API shows it (docs/api/resources.md "Transactions"): what an
 * event's transaction is compared on (the API adds money and merchant facts from the instruction;
 * the event carries the stored transaction row).
 */
export function specFieldsOf(txn: PublicTransaction): PublicTransaction {
  const { id, instructionId, status, rail, createdAt, updatedAt, result, error, statusHistory } = txn;
  return { id, instructionId, status, rail, createdAt, updatedAt, result, error, statusHistory };
}

/** A Pix end-to-end id as the rail reference of a completed transaction carries it. */
export const PIX_E2E_ID = /^E[0-9]{8}[0-9]{12}[0-9A-Za-z]{11}$/;

/** W3C traceparent (version 00): the trace id is the second field. */
export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
