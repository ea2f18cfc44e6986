import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc16, crcHex } from '@qr-payout/decoder/emv/crc';
import { defaultExecuteWaitText } from '@qr-payout/platform/execute-wait';
import Fastify from 'fastify';
import { registerSandboxTestQrsRoutes } from '../http/routes/sandbox-test-qrs';
import { loadApiPages } from './api-pages';
import { referencePageHtml } from './pages';
import { SANDBOX_TEST_AMOUNTS, SANDBOX_TEST_QRS } from './sandbox-test-qrs';

const readDoc = (...parts: string[]) =>
  readFileSync(path.join(__dirname, '..', '..', '..', 'docs', ...parts), 'utf8');

/** The lines of a Markdown file, table rows with one space around each `|`: the formatter pads the columns. */
const tableCellsSpaced = (markdown: string) =>
  markdown.split('\n').map((line) => (line.startsWith('|') ? line.replace(/ *\| */g, ' | ').trim() : line));

/** The CRC the decoder computes for a payload: everything up to and including `6304`. */
const expectedCrc = (qr: string) => crcHex(crc16(qr.slice(0, -4)));

describe('sandbox test QR catalogue', () => {
  it('has unique ids, every country and every scenario', () => {
    expect(new Set(SANDBOX_TEST_QRS.map((qr) => qr.id)).size).toBe(SANDBOX_TEST_QRS.length);
    for (const country of ['AR', 'BO', 'BR', 'CO', 'PE']) {
      const scenarios = SANDBOX_TEST_QRS.filter((qr) => qr.country === country).map((qr) => qr.scenario);
      expect(scenarios).toEqual(expect.arrayContaining(['static_amount', 'static_amountless']));
    }
    const scenarios = new Set(SANDBOX_TEST_QRS.map((qr) => qr.scenario));
    expect([...scenarios].sort()).toEqual(
      ['bad_crc', 'dynamic', 'low_confidence', 'outcome', 'static_amount', 'static_amountless'].sort(),
    );
  });

  it('has a CRC the decoder accepts on every code but the bad-CRC one (none typed by hand)', () => {
    for (const qr of SANDBOX_TEST_QRS) {
      if (qr.qr_string === null) continue;
      const crc = qr.qr_string.slice(-4);
      if (qr.scenario === 'bad_crc') expect(crc).not.toBe(expectedCrc(qr.qr_string));
      else expect({ id: qr.id, crc }).toEqual({ id: qr.id, crc: expectedCrc(qr.qr_string) });
    }
  });

  it('has a QR for each outcome amount of docs/partner-protocol.md "Sandbox outcomes"', () => {
    const outcomeAmounts = SANDBOX_TEST_QRS.filter((qr) => qr.scenario === 'outcome').map(
      (qr) => /5405\d+\.(\d\d)5802/.exec(qr.qr_string ?? '')?.[1],
    );
    const endings = SANDBOX_TEST_AMOUNTS.map((a) => a.ends_in).filter((e) => /^\d\d$/.test(e));
    expect(outcomeAmounts.sort()).toEqual(endings.sort());
  });

  it('is what docs/sandbox-test-qrs.md lists (every code, its expected result), and docs/api/sandbox.md the test amounts', () => {
    const doc = readDoc('sandbox-test-qrs.md');
    const docLines = tableCellsSpaced(doc);
    for (const qr of SANDBOX_TEST_QRS) {
      expect(doc).toContain(`### ${qr.id}\n\n${qr.description}`);
      if (qr.qr_string) expect(doc).toContain(`\`\`\`text\n${qr.qr_string}\n\`\`\``);
      // Table rows compared cell by cell: the formatter pads the columns.
      const row = docLines.find((line) => line.startsWith(`| [\`${qr.id}\`]`));
      expect(row).toContain(
        `\`POST /v1/${qr.operation}\` | ${qr.amount ?? '–'} | HTTP ${qr.expected.http_status}`,
      );
      for (const value of [qr.expected.error, qr.expected.transaction_status, qr.expected.error_code]) {
        if (value) expect(row).toContain(`\`${value}\``);
      }
    }
    const amountsDoc = tableCellsSpaced(readDoc('api', 'sandbox.md')).join('\n');
    for (const amount of SANDBOX_TEST_AMOUNTS) {
      expect(amountsDoc).toContain(
        `| ${amount.ends_in} | ${amount.example} | \`${amount.transaction_status}\``,
      );
    }
  });

  it('serves the JSON and the page without an API key; /docs links the page', async () => {
    // Over a socket: fastify.inject needs light-my-request, which Jest cannot load (app.test.ts).
    const app = Fastify();
    registerSandboxTestQrsRoutes(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const json = await fetch(`http://127.0.0.1:${port}/v1/sandbox/test-qrs`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(await json.json()).toMatchObject({
      test_amounts: SANDBOX_TEST_AMOUNTS,
      test_qrs: SANDBOX_TEST_QRS,
    });
    const page = await fetch(`http://127.0.0.1:${port}/docs/sandbox-test-qrs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    for (const qr of SANDBOX_TEST_QRS) {
      expect(html).toContain(`id="${qr.id}"`);
      if (qr.qr_string) expect(html).toContain(qr.qr_string);
    }
    // Each code with a string also as an image to scan (decoded back in docs-rendering.test.ts).
    const withString = SANDBOX_TEST_QRS.filter((qr) => qr.qr_string);
    expect(html.match(/<svg /g)).toHaveLength(withString.length);
    for (const qr of withString) expect(html).toContain(`aria-label="QR code ${qr.id}"`);
    for (const amount of SANDBOX_TEST_AMOUNTS) expect(html).toContain(`<td>${amount.ends_in}</td>`);
    // The catalogue's Markdown code spans show as code, never as backticks.
    expect(html).toContain('send <code>amount</code>');
    expect(html).not.toContain('`');
    // The amounts' page, with the pay's wait for …54 said on this one too (docs/api/sandbox.md "Test amounts").
    expect(html).toContain('href="/docs/api/sandbox"');
    expect(html).toContain('href="/docs/api/sandbox#test-amounts"');
    expect(loadApiPages().html('sandbox')).toContain('<h2 id="test-amounts">');
    expect(html).toContain(`waits the full ${defaultExecuteWaitText()}`);
    // The reference page links the test codes once.
    expect(referencePageHtml().match(/href="\/docs\/sandbox-test-qrs"/g)).toHaveLength(1);
    await app.close();
  });
});
