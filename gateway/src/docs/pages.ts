import { ERROR_REGISTRY, ERROR_TAGS, type ErrorEntry } from '../errors/registry';
import { apiPageHref } from './doc-references';
import { escapeHtml } from './html';
import { qrSvg } from './qr-svg';
import {
  SANDBOX_TEST_AMOUNTS,
  SANDBOX_TEST_PAYER,
  SANDBOX_TEST_QRS,
  type SandboxTestQrExpected,
} from './sandbox-test-qrs';

/**
 * Catalogue text is written for docs/sandbox-test-qrs.md too, with Markdown's `code` spans: escaped,
 * then each span shown as <code> (nothing else of Markdown is used there).
 */
function textWithCodeHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:55em;margin:2em auto;padding:0 1em;line-height:1.5}h2 small,h3 small{color:#666;font-weight:normal}section{border-top:1px solid #ddd}pre{background:#f5f5f5;padding:1em;white-space:pre-wrap;word-break:break-all}table{border-collapse:collapse}.qr{display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap}.qr svg{flex:none}.qr pre{flex:1;min-width:15em}td,th{border:1px solid #ddd;padding:.3em .6em;text-align:left}';

/** A plain documentation page: no script, inline style only (DOCS_CSP allows nothing else). */
export function docPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${PAGE_STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** GET /docs: the API reference, Swagger UI over GET /v1/openapi.json with local assets. */
export function referencePageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>QR Payout API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<p style="font-family: sans-serif; margin: 1em 2em">Every error has the same body; see the <a href="/docs/errors">error catalogue</a>. Machine-readable document: <a href="/v1/openapi.json">/v1/openapi.json</a>. Every operation in curl, TypeScript, Python and Go: <a href="/docs/samples">samples</a>. To try a call: <strong>Authorize</strong>, paste your API key (the sandbox's is printed by <code>npm start</code> and kept in <code>.data/sandbox.json</code>), then <strong>Try it out</strong>; give every pay and execute a new <code>Idempotency-Key</code> (a repeated key replays the first answer). Testing in the sandbox: <a href="/docs/sandbox-test-qrs">test QR codes and amounts</a>. The rules behind the reference (idempotency, errors, rate limits, FX, webhooks): <a href="/docs/api">the public API pages</a>. Partner callbacks and the probes are grouped last, under <strong>Partners</strong> and <strong>Operations</strong>: API clients do not call them.</p>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

/**
 * GET /docs/errors: the catalogue `docs_url` points at, one anchor per error tag
 * (docs/api/errors.md "Error names").
 */
export function errorCataloguePageHtml(): string {
  const rows = ERROR_TAGS.map((tag) => {
    const entry: ErrorEntry = ERROR_REGISTRY[tag];
    const fields = Object.entries(entry.bodyFields ?? {})
      .map(
        ([name, meaning]) => `<p><em>The body adds</em> <code>${name}</code>: ${escapeHtml(meaning)}</p>\n`,
      )
      .join('');
    return `<section id="${tag}">
<h2><a href="#${tag}">${tag}</a> <small>HTTP ${entry.status}</small></h2>
<p><strong>${escapeHtml(entry.title)}.</strong> ${escapeHtml(entry.description)}</p>
${fields}<p><em>What to do:</em> ${escapeHtml(entry.action)}</p>
</section>`;
  }).join('\n');
  return docPage(
    'QR Payout API errors',
    `<h1>Errors</h1>
<p>Every error response has this body and an <code>x-request-id</code> header with the same id:</p>
<pre>{
  "_tag": "AuthError",
  "type": "AuthError",
  "message": "Missing API key: send your key in the x-api-key header.",
  "docs_url": "…/docs/errors#AuthError",
  "request_id": "7b1f0c8e-3a52-4a53-9d1e-2f0c6a1b9e77"
}</pre>
<p>A 429 also carries <code>retryAfter</code> (seconds) and a <code>Retry-After</code> header. Give support the <code>request_id</code>.</p>
${rows}
<p><a href="/docs">API reference</a></p>`,
  );
}

function expectedText(expected: SandboxTestQrExpected): string {
  const parts = [`HTTP ${expected.http_status}`];
  if (expected.error) parts.push(expected.error);
  if (expected.answered_status) parts.push(`answered ${expected.answered_status}`);
  if (expected.transaction_status) parts.push(`transaction ${expected.transaction_status}`);
  if (expected.error_code) parts.push(`error.code ${expected.error_code}`);
  if (expected.confidence !== undefined) parts.push(`confidence ${expected.confidence}`);
  return parts.join(', ');
}

/** The public API page on the sandbox (docs/api/sandbox.md), served by api-pages.ts. */
const SANDBOX_PAGE_HREF = apiPageHref('sandbox');

/** GET /docs/sandbox-test-qrs: the test QR codes and amounts (docs/sandbox-test-qrs.md). */
export function sandboxTestQrsPageHtml(): string {
  const amounts = SANDBOX_TEST_AMOUNTS.map(
    (a) =>
      `<tr><td>${escapeHtml(a.ends_in)}</td><td>${a.example}</td><td>${a.transaction_status}${a.error_code ? ` (${a.error_code})` : ''}</td><td>${textWithCodeHtml(a.description)}</td></tr>`,
  ).join('\n');
  const qrs = SANDBOX_TEST_QRS.map((qr) => {
    // The image beside its text: a wallet's camera scans one, a test pastes the other.
    const code = qr.qr_string
      ? `<div class="qr">${qrSvg(qr.qr_string, `QR code ${qr.id}`)}<pre>${escapeHtml(qr.qr_string)}</pre></div>`
      : `<p><em>How to get one:</em> ${textWithCodeHtml(qr.how_to_get ?? '')}</p>`;
    const amount = qr.amount !== undefined ? `, with <code>"amount": ${qr.amount}</code>` : '';
    return `<section id="${qr.id}">
<h3><a href="#${qr.id}">${qr.id}</a> <small>${qr.country} · ${qr.scenario}</small></h3>
<p>${textWithCodeHtml(qr.description)}</p>
${code}<p><em>Send it to</em> <code>POST /v1/${qr.operation}</code>${amount}. <em>Expect:</em> ${escapeHtml(expectedText(qr.expected))}.</p>
</section>`;
  }).join('\n');
  return docPage(
    'QR Payout sandbox test QR codes',
    `<h1>Sandbox test QR codes</h1>
<p>Merchant QR codes of every country the sandbox pays, with what it answers; each as an image to scan with a wallet's camera and as text. The same list as JSON: <a href="/v1/sandbox/test-qrs">/v1/sandbox/test-qrs</a>. Pay them with <code>POST /v1/pay</code> (or resolve with <code>POST /v1/resolve</code>), your sandbox key in <code>x-api-key</code> and a fresh <code>Idempotency-Key</code>. How to use them, the test amounts and the triggers that make a webhook happen for you: <a href="${SANDBOX_PAGE_HREF}">the sandbox page</a>.</p>
<h2>Test amounts</h2>
<p>The last two digits of the amount (in minor units) pick what the sandbox partner does (<a href="${SANDBOX_PAGE_HREF}#test-amounts">more</a>):</p>
<table>
<tr><th>ends in</th><th>example</th><th>transaction</th><th>what happens</th></tr>
${amounts}
</table>
<h2>A payer</h2>
<p>Any payer works; this one is foreign to every merchant country (a US passport):</p>
<pre>${escapeHtml(JSON.stringify(SANDBOX_TEST_PAYER, null, 2))}</pre>
<h2>Codes</h2>
${qrs}
<p><a href="/docs">API reference</a> · <a href="/docs/errors">errors</a></p>`,
  );
}
