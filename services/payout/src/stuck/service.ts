// ListStuckTransactions (README "Transaction state machine"): what operators must reconcile,
// shown by `payoutctl transactions stuck` through the gateway's admin API.
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, serviceError } from '@qr-payout/platform/errors';
import {
  type ListStuckTransactionsRequest,
  type StuckTransaction,
  StuckTransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { SettlementHorizons } from './horizons';
import type { ListedStuckTransaction, StuckStore } from './store';

const DEFAULT_STUCK_LIMIT = 100;
const MAX_STUCK_LIMIT = 500;

export interface StuckService {
  listStuckTransactions(req: ListStuckTransactionsRequest): Promise<StuckTransaction[]>;
}

function toStuckMessage(row: ListedStuckTransaction): StuckTransaction {
  return create(StuckTransactionSchema, {
    id: row.id,
    tenantId: row.tenantId,
    status: row.status === 'pending' ? TransactionStatus.PENDING : TransactionStatus.PROCESSING,
    rail: row.rail,
    createdAt: timestampFromDate(row.createdAt),
    ageMs: BigInt(Math.max(0, Math.round(row.ageMs))),
    horizonMs: BigInt(Math.round(row.horizonMs)),
    partnerPayoutId: row.partnerPayoutId ?? '',
    lastPolledAt: row.lastPolledAt ? timestampFromDate(row.lastPolledAt) : undefined,
    stuckSince: row.stuckSince ? timestampFromDate(row.stuckSince) : undefined,
  });
}

/** 0 is the default; anything else outside 1..500 is refused, naming `limit`. */
export function stuckLimit(limit: number): number {
  if (limit === 0) return DEFAULT_STUCK_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_STUCK_LIMIT)
    throw serviceError('ValidationError', `limit must be between 1 and ${MAX_STUCK_LIMIT}`, {
      code: Code.InvalidArgument,
      field: 'limit',
    });
  return limit;
}

export function createStuckService(deps: { store: StuckStore; horizons: SettlementHorizons }): StuckService {
  return {
    async listStuckTransactions(req) {
      const rows = await deps.store.listStuck(deps.horizons, {
        tenantId: req.tenantId || undefined,
        limit: stuckLimit(req.limit),
      });
      return rows.map(toStuckMessage);
    },
  };
}
