// ESM consumer (docs/testing.md "Packages"): plain node, node --conditions=development, and the
// bundler's dev build all run this file. The label is the first argument (or the bundle's define).
import * as client from '@qr-payout/client';
import * as receiver from '@qr-payout/webhook-receiver';
import vectors from '@qr-payout/webhook-receiver/signature-vectors.json' with { type: 'json' };
import checks from './checks.cjs';

const failed = await checks.runChecks(process.argv[2] ?? 'esm', { client, receiver, vectors });
process.exitCode = failed ? 1 : 0;
