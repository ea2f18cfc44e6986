import { PUBLIC_ROUTES } from '../../http/routes/table';
import { escapeHtml } from '../html';
import { docPage } from '../pages';
import { samplesOf } from './index';
import { SAMPLE_ENV } from './language';
import { type SampleOperation, sampleOperations } from './operations';

function sectionOf(op: SampleOperation): string {
  const blocks = samplesOf(op)
    .map(
      ({ language, code }) =>
        `<h3>${language.label}</h3>\n<pre><code class="language-${language.id}">${escapeHtml(code)}</code></pre>`,
    )
    .join('\n');
  return `<section id="${op.operationId}">
<h2><a href="#${op.operationId}">${op.operationId}</a> <small>${op.method} ${escapeHtml(op.url)}</small></h2>
<p>${escapeHtml(op.summary)}.</p>
${blocks}
</section>`;
}

/**
 * GET /docs/samples: every operation API clients call, in curl and through each SDK, one anchor per
 * operationId (docs/api/README.md "Samples").
 */
export function samplesPageHtml(
  operations: readonly SampleOperation[] = sampleOperations(PUBLIC_ROUTES),
): string {
  const index = operations.map((op) => `<a href="#${op.operationId}">${op.operationId}</a>`).join(' · ');
  return docPage(
    'QR Payout API samples',
    `<nav><a href="/docs">API reference</a> · <a href="/docs/api">the public API</a> · <a href="/docs/errors">error catalogue</a></nav>
<h1>Samples</h1>
<p>Each operation in curl, TypeScript (<code>@qr-payout/client</code>), Python (<code>qr_payout</code>) and Go (<code>qrpayout</code>), with the example values of the reference. Every sample reads the base URL from <code>${SAMPLE_ENV.baseUrl}</code> (default <code>${SAMPLE_ENV.defaultBaseUrl}</code>, where <code>npm start</code> runs the sandbox) and your API key from <code>${SAMPLE_ENV.apiKey}</code>, and prints the answer. Give every payment a new <code>Idempotency-Key</code>: a repeated key replays the first answer. Ids in a path are examples: use one of yours.</p>
<p>${index}</p>
${operations.map(sectionOf).join('\n')}`,
  );
}
