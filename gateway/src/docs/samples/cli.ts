import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PUBLIC_ROUTES } from '../../http/routes/table';
import { samplesOf } from './index';
import type { SampleLanguage } from './language';
import { type SampleOperation, sampleOperations, type ValueSubstitutions } from './operations';
import { sandboxIds } from './sandbox-ids';

// Writes the samples of /docs/samples to files, for the checks of the SDK stages
// (docs/testing.md "Samples"):
//
//   node --conditions=development --import tsx gateway/src/docs/samples/cli.ts <dir> [--sandbox]
//
// <dir>/curl/<operationId>.sh, typescript/<operationId>.mts, python/<operationId>.py,
// go/<operationId>/main.go, and statuses.tsv: each operationId, a tab, the statuses it documents.
// --sandbox: first makes a transaction, its webhook delivery and an instruction on the sandbox at
// QR_PAYOUT_BASE_URL (key QR_PAYOUT_API_KEY), and writes their ids in place of the examples'.

const FILE_OF: Record<SampleLanguage['id'], (operationId: string) => string> = {
  curl: (id) => `curl/${id}.sh`,
  typescript: (id) => `typescript/${id}.mts`,
  python: (id) => `python/${id}.py`,
  go: (id) => `go/${id}/main.go`,
};

function write(dir: string, file: string, text: string): void {
  const target = path.join(dir, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
}

export function writeSamples(dir: string, operations: readonly SampleOperation[]): void {
  for (const op of operations) {
    for (const { language, code } of samplesOf(op)) write(dir, FILE_OF[language.id](op.operationId), code);
  }
  write(
    dir,
    'statuses.tsv',
    operations.map((op) => `${op.operationId}\t${op.statuses.join(' ')}\n`).join(''),
  );
}

async function main(args: string[]): Promise<void> {
  const dir = args.find((arg) => !arg.startsWith('--'));
  if (!dir || args.some((arg) => arg.startsWith('--') && arg !== '--sandbox')) {
    throw new Error('usage: cli.ts <dir> [--sandbox]');
  }
  let values: ValueSubstitutions = new Map();
  if (args.includes('--sandbox')) {
    const baseUrl = process.env['QR_PAYOUT_BASE_URL'];
    const apiKey = process.env['QR_PAYOUT_API_KEY'];
    if (!baseUrl || !apiKey) throw new Error('--sandbox needs QR_PAYOUT_BASE_URL and QR_PAYOUT_API_KEY');
    values = await sandboxIds({ baseUrl, apiKey });
  }
  writeSamples(dir, sampleOperations(PUBLIC_ROUTES, values));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`samples: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
