import { ERROR_REGISTRY, ERROR_TAGS, type ErrorEntry } from '../errors/registry';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
<p style="font-family: sans-serif; margin: 1em 2em">Every error has the same body; see the <a href="/docs/errors">error catalogue</a>. Machine-readable document: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

/** GET /docs/errors: the catalogue `docs_url` points at, one anchor per error tag (design §6). */
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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>QR Payout API errors</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;padding:0 1em;line-height:1.5}h2 small{color:#666;font-weight:normal}section{border-top:1px solid #ddd}pre{background:#f5f5f5;padding:1em}</style>
</head>
<body>
<h1>Errors</h1>
<p>Every error response has this body and an <code>x-request-id</code> header with the same id (spec §7):</p>
<pre>{
  "_tag": "AuthError",
  "type": "AuthError",
  "message": "Missing API key: send your key in the x-api-key header.",
  "docs_url": "…/docs/errors#AuthError",
  "request_id": "7b1f0c8e-3a52-4a53-9d1e-2f0c6a1b9e77"
}</pre>
<p>A 429 also carries <code>retryAfter</code> (seconds) and a <code>Retry-After</code> header. Give support the <code>request_id</code>.</p>
${rows}
<p><a href="/docs">API reference</a></p>
</body>
</html>
`;
}
