// Example app: resolve a merchant QR, show the instruction, pay it once confirmed, and wait for the
// signed webhook on a local HTTP server (the pay's callback_url), verified with the client's
// receiveWebhook (docs/api/webhooks.md#try-it-in-the-sandbox-two-minutes). Against the sandbox:
//
//   npm start    # in another terminal: prints the API key and the signing secret
//   QR_PAYOUT_API_KEY=... QR_PAYOUT_SIGNING_SECRET=whsec_... npx tsx --conditions=development client/examples/pay-and-wait.ts
//
// Exit code 0 once the transaction is completed and its webhook verified; 1 otherwise.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import {
  createClient,
  createMemoryDeduplicator,
  QrPayoutError,
  receiveWebhook,
  type TransactionCompletedEvent,
  type TransactionFailedEvent,
} from '@qr-payout/client';

// A static Pix QR without an amount (docs/sandbox-test-qrs.md#br-static-amountless): the amount
// comes from --amount.
const SANDBOX_PIX_QR =
  '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-4266141740005204581253039865802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2EOUT16304DAE0';

const USAGE = `Usage: pay-and-wait [--qr TEXT] [--amount N] [--wallet-currency CCY] [--yes] [--timeout-ms N]
Env: QR_PAYOUT_BASE_URL (default http://127.0.0.1:8080), QR_PAYOUT_API_KEY,
     QR_PAYOUT_SIGNING_SECRET (the tenant's webhook signing secret, whsec_...)`;

type TerminalEvent = TransactionCompletedEvent | TransactionFailedEvent;

/** A receiver on 127.0.0.1: verifies every request and keeps the verified transaction events. */
async function startReceiver(secret: string) {
  const dedupe = createMemoryDeduplicator();
  const events: TerminalEvent[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const result = await receiveWebhook({
          headers: req.headers,
          rawBody: Buffer.concat(chunks),
          secrets: [secret],
          dedupe,
        });
        if (result.status !== 200) console.log(`webhook refused: ${result.status} ${result.reason ?? ''}`);
        const event = result.event;
        if (event && !result.duplicate && event.event_type !== 'webhook.ping') {
          events.push(event);
          for (const wake of waiters) wake();
        }
        res.writeHead(result.status).end();
      } catch (err) {
        console.error('webhook handling failed', err);
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  function waitFor(transactionId: string, timeoutMs: number): Promise<TerminalEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const event = events.find((e) => e.data.transaction_id === transactionId);
        if (!event) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(event);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no verified webhook for ${transactionId} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, waitFor, close };
}

async function confirm(question: string, assumeYes: boolean): Promise<boolean> {
  if (assumeYes) return true;
  if (!process.stdin.isTTY) throw new Error('no terminal to confirm on: pass --yes');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      qr: { type: 'string', default: SANDBOX_PIX_QR },
      amount: { type: 'string', default: '25.90' },
      'wallet-currency': { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      'timeout-ms': { type: 'string', default: '60000' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const apiKey = process.env.QR_PAYOUT_API_KEY;
  const secret = process.env.QR_PAYOUT_SIGNING_SECRET;
  if (values.help || !apiKey || !secret) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const client = createClient({
    baseUrl: process.env.QR_PAYOUT_BASE_URL ?? 'http://127.0.0.1:8080',
    apiKey,
    onRetry: ({ status, tag, delayMs }) => console.log(`  (${status} ${tag}: retrying in ${delayMs} ms)`),
  });
  const receiver = await startReceiver(secret);
  try {
    // The amount is only for QR codes that carry none; the sandbox QR above carries none.
    const { instruction } = await client.resolve({
      qr_string: values.qr,
      amount: Number(values.amount),
      ...(values['wallet-currency'] ? { wallet_currency: values['wallet-currency'] } : {}),
    });
    console.log(`instruction ${instruction.id}`);
    console.log(`  merchant:   ${instruction.creditor.name} (${instruction.scheme}, ${instruction.country})`);
    console.log(`  amount:     ${instruction.amount} ${instruction.currency}`);
    if (instruction.quote) {
      console.log(`  you pay:    ${instruction.wallet_amount} ${instruction.wallet_currency}`);
      console.log(`  rate:       ${instruction.quote.rate}, expires ${instruction.quote.expires_at}`);
    }
    console.log(`  confidence: ${instruction.confidence}`);
    if (!(await confirm('Pay it?', values.yes))) {
      console.log('not paid');
      return 1;
    }
    // No idempotencyKey given: the client makes one for this call and reuses it on every retry.
    const { transaction } = await client.execute({
      instruction_id: instruction.id,
      payer_name: 'Juan Perez',
      payer_account: '0001-1234567',
      payer_tax_id: '20-12345678-6',
      payer_country: 'AR',
      payer_id_type: 'tax_id',
      callback_url: receiver.url,
    });
    console.log(`transaction ${transaction.id}: ${transaction.status}`);
    const event = await receiver.waitFor(transaction.id, Number(values['timeout-ms']));
    console.log(`webhook ${event.event_type} ${event.event_id}: signature verified`);
    const { transaction: final } = await client.getTransaction(transaction.id);
    if (final.status !== 'completed') {
      console.log(`transaction ${final.id}: ${final.status} ${final.error?.code ?? ''}`);
      return 1;
    }
    console.log(`transaction ${final.id}: completed, reference ${final.result?.reference}`);
    return 0;
  } finally {
    await receiver.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof QrPayoutError) {
      console.error(`${err.status} ${err.tag}: ${err.message} (request ${err.requestId}, ${err.docsUrl})`);
    } else {
      console.error(err);
    }
    process.exit(1);
  },
);
