// @qr-payout/platform/db: PostgreSQL pools on a schema, transactions, forward-only migrations,
// batched retention jobs.
export { migrate } from './migrate';
export { createPgPool, withTransaction } from './pool';
export { type PrunedTable, pruneJobSettings, runPruneJobs } from './prune';
export { isDatabaseUnavailable } from './unavailable';
