// @qr-payout/platform/db: PostgreSQL pools on a schema, transactions, forward-only migrations.
export { migrate } from './migrate';
export { createPgPool, withTransaction } from './pool';
