import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@qr-payout/client';
import { PUBLIC_ROUTES } from '../../http/routes/table';
import { buildOpenApiDocument } from '../../openapi/document';
import { EXAMPLE_RESOLVED_INSTRUCTION_PLACEHOLDER, EXAMPLE_TRANSACTION_ID } from '../../openapi/examples';
import { SAMPLE_LANGUAGES, samplesOf } from './index';
import { sampleOperations } from './operations';
import { samplesPageHtml } from './page';

const ROOT = path.resolve(__dirname, '../../../..');
const OPERATIONS = sampleOperations(PUBLIC_ROUTES);
const byId = (id: string) => OPERATIONS.find((op) => op.operationId === id)!;
const languageOf = (id: string) => SAMPLE_LANGUAGES.find((language) => language.id === id)!;

/** The methods each SDK's hand-written client defines, read from its source. */
const SDK_METHODS: Record<string, () => Set<string>> = {
  typescript: () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test' });
    return new Set(
      Object.keys(client).filter((name) => typeof client[name as keyof typeof client] === 'function'),
    );
  },
  python: () => {
    const source = readFileSync(path.join(ROOT, 'sdk/python/src/qr_payout/client.py'), 'utf8');
    return new Set([...source.matchAll(/^ {4}def ([a-z_]+)\(/gm)].map(([, name]) => name!));
  },
  go: () => {
    const source = readFileSync(path.join(ROOT, 'sdk/go/operations.go'), 'utf8');
    return new Set([...source.matchAll(/^func \(c \*Client\) ([A-Za-z]+)\(/gm)].map(([, name]) => name!));
  },
};

describe('samples (docs/api/README.md "Samples")', () => {
  it('cover the operations API clients call, and no other', () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['pay', 'execute', 'resolve', 'getTransaction', 'listSchemes']),
    );
    for (const hidden of ['healthz', 'readyz', 'partnerCallback', 'getOpenApiDocument', 'getSamplesPage']) {
      expect(ids).not.toContain(hidden);
    }
  });

  it('give every operation a curl, TypeScript, Python and Go sample', () => {
    expect(SAMPLE_LANGUAGES.map((language) => language.id)).toEqual(['curl', 'typescript', 'python', 'go']);
    for (const op of OPERATIONS) {
      const samples = samplesOf(op);
      expect([op.operationId, samples.length]).toEqual([op.operationId, 4]);
      for (const { code } of samples) expect(code).toContain(op.pathParams[0]?.value ?? '');
    }
  });

  it.each(Object.keys(SDK_METHODS))('map every operation to a method the %s SDK has', (id) => {
    const methods = SDK_METHODS[id]!();
    const mapped = OPERATIONS.map((op) => languageOf(id).sdkMethod!(op.operationId));
    expect(mapped.filter((method) => !methods.has(method))).toEqual([]);
  });

  it('send the example body, a new Idempotency-Key where one is taken, and the key as each SDK does', () => {
    const pay = samplesOf(byId('pay'));
    for (const { code } of pay) expect(code).toContain('PADARIA PAO QUENTE');
    const code = (op: string, language: string) =>
      samplesOf(byId(op)).find((sample) => sample.language.id === language)!.code;
    expect(code('pay', 'curl')).toContain(`-H "Idempotency-Key: $(node -p 'crypto.randomUUID()')"`);
    expect(code('pay', 'typescript')).toContain('{ idempotencyKey: randomUUID() }');
    expect(code('pay', 'python')).toContain('idempotency_key=str(uuid.uuid4())');
    expect(code('pay', 'go')).toContain('qrpayout.WithIdempotencyKey(rand.Text())');
    expect(code('getTransaction', 'curl')).not.toContain('Idempotency-Key');
    expect(code('getTransaction', 'curl')).toContain('-H "x-api-key: $QR_PAYOUT_API_KEY"');
    expect(code('listSandboxTestQrs', 'curl')).not.toContain('x-api-key');
    for (const { code: sample } of samplesOf(byId('listSchemes')))
      expect(sample).toContain('QR_PAYOUT_BASE_URL');
  });

  it('take real ids in place of the examples when given them', () => {
    const values = new Map([
      [EXAMPLE_TRANSACTION_ID, 'txn_REAL'],
      [EXAMPLE_RESOLVED_INSTRUCTION_PLACEHOLDER, 'ins_REAL'],
    ]);
    const operations = sampleOperations(PUBLIC_ROUTES, values);
    const op = (id: string) => operations.find((o) => o.operationId === id)!;
    expect(op('getTransaction').pathParams).toEqual([{ name: 'id', value: 'txn_REAL' }]);
    expect(op('execute').body?.['instruction_id']).toBe('ins_REAL');
  });

  it('typecheck against @qr-payout/client', () => {
    // In the repository, so `@qr-payout/client` resolves as in any workspace; removed after.
    const dir = mkdtempSync(path.join(ROOT, '.samples-typecheck-'));
    try {
      const files = OPERATIONS.map((op) => {
        const file = `${op.operationId}.mts`;
        writeFileSync(path.join(dir, file), languageOf('typescript').render(op));
        return file;
      });
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../tsconfig.base.json',
          compilerOptions: { noEmit: true, types: ['node'] },
          files,
        }),
      );
      const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
      const run = spawnSync(tsc, ['-p', dir], { encoding: 'utf8' });
      // tsc prints each error, naming the sample's file and line.
      expect({ status: run.status, errors: run.stdout + run.stderr }).toEqual({ status: 0, errors: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('are served as one page: an anchor per operation, four code blocks each, no script', () => {
    const html = samplesPageHtml(OPERATIONS);
    for (const op of OPERATIONS) {
      const section = html.split(`<section id="${op.operationId}">`)[1]?.split('</section>')[0] ?? '';
      expect([op.operationId, section.match(/<pre><code/g)?.length]).toEqual([op.operationId, 4]);
    }
    expect(html).not.toContain('<script');
    expect(html).toContain('&#34;qr_string&#34;');
  });

  it("end each client operation's description in the document with its samples link", () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    for (const [, item] of Object.entries(doc.paths)) {
      for (const [, operation] of Object.entries(item)) {
        const id = operation['operationId'] as string;
        const link = `[/docs/samples#${id}](/docs/samples#${id})`;
        const ends = (operation['description'] as string).endsWith(`${link}.`);
        expect([id, ends]).toEqual([id, OPERATIONS.some((op) => op.operationId === id)]);
      }
    }
  });
});
