// A complete webhook receiver for QR Payout events, on bare node:http (webhook-receiver/README.md).
//   QR_PAYOUT_SIGNING_SECRET=whsec_... node webhook-receiver/examples/receiver.js
// Listens on 127.0.0.1:9000 (PORT to change it) and accepts POST /hook: give a pay
// "callback_url": "http://127.0.0.1:9000/hook", or register that URL as an endpoint.
const http = require('node:http');
const { receiveWebhook, createMemoryDeduplicator } = require('@qr-payout/webhook-receiver');

const secrets = (process.env.QR_PAYOUT_SIGNING_SECRET ?? '').split(',').filter(Boolean); // new,old while rotating
if (secrets.length === 0) throw new Error('set QR_PAYOUT_SIGNING_SECRET (the sandbox banner shows it)');
const port = Number(process.env.PORT ?? 9000);
const dedupe = createMemoryDeduplicator(); // one process only; in production a table (README)
let secretHintShown = false; // the service retries a refused event: say what to check once

function refused(result) {
  console.warn('webhook refused:', result.status, result.reason);
  if (result.reason !== 'no_matching_signature' || secretHintShown) return;
  secretHintShown = true;
  console.warn(
    'the signature matches none of the secrets in QR_PAYOUT_SIGNING_SECRET: compare it with the signing secret',
    "the sandbox printed at start (also in .data/sandbox.json), or your tenant's current one",
  );
}

async function handle(event) {
  if (event.event_type === 'transaction.completed') console.log('paid', event.data.transaction_id);
  if (event.event_type === 'transaction.failed') console.log('failed', event.data.error.code);
  if (event.event_type === 'webhook.ping') console.log('ping:', event.data.message);
}

http
  .createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/hook') {
      console.warn('not a webhook route:', req.method, req.url);
      return res.writeHead(404).end();
    }
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > 1_048_576) return res.writeHead(413).end();
      chunks.push(chunk);
    }
    try {
      const rawBody = Buffer.concat(chunks);
      const result = await receiveWebhook({ headers: req.headers, rawBody, secrets, dedupe });
      if (result.status !== 200) refused(result);
      if (result.event && !result.duplicate) {
        await handle(result.event).catch(async (err) => {
          await dedupe.forget(result.event.event_id); // let the retry through
          throw err;
        });
      } else if (result.duplicate) console.log('duplicate', result.event.event_id);
      res.writeHead(result.status).end();
    } catch (err) {
      console.error(err);
      res.writeHead(500).end(); // the service retries
    }
  })
  .listen(port, '127.0.0.1', function () {
    console.log(`listening on 127.0.0.1:${this.address().port}/hook`); // PORT=0: the port picked
  });
