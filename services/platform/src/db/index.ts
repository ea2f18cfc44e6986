// @qr-payout/platform/db: PostgreSQL pools on a schema with client-side deadlines, transactions,
// forward-only migrations, batched retention jobs, grpc.health.v1 that follows the database.

export { withDatabaseHealth } from './health';
export { migrate } from './migrate';
export {
  createPgPool,
  dbDeadlineSettings,
  dbHealthSettings,
  pgSessionDeadlines,
  withTransaction,
} from './pool';
export { type PrunedTable, pruneJobSettings, runPruneJobs } from './prune';
export { isDatabaseUnavailable } from './unavailable';
