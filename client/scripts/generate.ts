// `npm run generate:client`: writes the OpenAPI document the gateway serves at /v1/openapi.json
// (built offline from the route table, gateway/src/http/routes/table.ts, and gateway/src/openapi/, no
// server) to client/openapi.json, then runs
// the generator (orval, fetch client) into client/src/generated/. The output is checked in and
// never edited by hand; `npm run generate:client:check` fails when it differs from what this writes.
// `--skip-document`: regenerate from the client/openapi.json already there.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const clientDir = path.resolve(__dirname, '..');
const documentPath = path.join(clientDir, 'openapi.json');
const outputDir = path.join(clientDir, 'src', 'generated');

async function generateClient(): Promise<void> {
  const { default: generate } = await import('orval');
  await generate(
    {
      input: { target: documentPath },
      output: {
        target: path.join(outputDir, 'operations.ts'),
        schemas: path.join(outputDir, 'model'),
        client: 'fetch',
        mode: 'split',
        clean: true,
        // Our packages are CommonJS: relative imports without an extension, as in the rest of the repo.
        tsconfig: { compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
        // Every operation calls our transport (base URL, API key, retries, errors) with its options.
        override: {
          mutator: { path: path.join(clientDir, 'src', 'transport.ts'), name: 'send' },
          requestOptions: true,
        },
      },
    },
    clientDir,
  );
}

async function main(): Promise<void> {
  if (!process.argv.includes('--skip-document')) {
    const { buildOpenApiDocument } = await import('@qr-payout/gateway');
    writeFileSync(documentPath, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  }
  await generateClient();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
