// CommonJS consumer (docs/testing.md "Packages"): require() of both packages.
const client = require('@qr-payout/client');
const receiver = require('@qr-payout/webhook-receiver');
const vectors = require('@qr-payout/webhook-receiver/signature-vectors.json');
const { runChecks } = require('./checks.cjs');

runChecks(process.argv[2] ?? 'cjs', { client, receiver, vectors }).then((failed) => {
  process.exitCode = failed ? 1 : 0;
});
