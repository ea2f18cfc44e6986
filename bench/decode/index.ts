// Decode benchmark (bench/README.md "decode"): our EMVCo parser + Brazil profile against the
// `pix-utils` parser, on the same Brazilian Pix payloads, alternating in the same run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePix } from 'pix-utils';
import { decodeQrText } from '../../services/decoder/src/decode/decoder';

export interface DecodeBenchOptions {
  /** Measured milliseconds per target per round. */
  durationMs: number;
  warmupMs: number;
  rounds: number;
}

/** Our decoder must be at least this many times faster than pix-utils. */
export const DECODE_RATIO_GOAL = 10;

const CORPUS = path.resolve(__dirname, '../../services/decoder/test/fixtures/qr-vectors.jsonl');

interface VectorRecord {
  country: string;
  payload: string;
  invalid?: boolean;
  parsed: { scheme_guess?: string };
}

/** The corpus' Brazilian Pix codes that are valid (CRC and TLV): what both parsers accept. */
export function brazilianPixPayloads(): string[] {
  return readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as VectorRecord)
    .filter((r) => r.country === 'BR' && !r.invalid && r.parsed.scheme_guess?.startsWith('BR.PIX'))
    .map((r) => r.payload);
}

interface Target {
  readonly name: string;
  /** Decodes one payload; returns whether it was understood (checked once before timing). */
  decode(payload: string): boolean;
}

const ours: Target = {
  name: 'decoder (ours)',
  decode: (payload) => {
    try {
      decodeQrText(payload);
      return true;
    } catch {
      return false;
    }
  },
};

const pixUtils: Target = {
  name: 'pix-utils parsePix',
  decode: (payload) => !('error' in parsePix(payload)),
};

// Whole passes over the corpus until `ms` have elapsed; decodes per second.
function measure(target: Target, payloads: readonly string[], ms: number): number {
  let decodes = 0;
  let sink = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (const payload of payloads) if (target.decode(payload)) sink++;
    decodes += payloads.length;
    now = process.hrtime.bigint();
  }
  if (sink !== decodes) throw new Error(`${target.name} failed on some payloads during the run`);
  return decodes / (Number(now - start) / 1e9);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function formatRow(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

export async function runDecodeBench(opts: DecodeBenchOptions): Promise<boolean> {
  const corpus = brazilianPixPayloads();
  const targets = [pixUtils, ours];
  // Both run on exactly the payloads both understand, so neither pays for an error path.
  const payloads = corpus.filter((payload) => targets.every((target) => target.decode(payload)));
  for (const target of targets) {
    const refused = corpus.filter((payload) => !target.decode(payload)).length;
    if (refused > 0) console.log(`${target.name} refuses ${refused} of ${corpus.length} payloads: left out`);
  }
  if (payloads.length < corpus.length / 2) throw new Error('fewer than half the corpus is decodable by both');
  for (const target of targets) measure(target, payloads, opts.warmupMs);
  const rates = new Map<Target, number[]>(targets.map((t) => [t, []]));
  for (let round = 0; round < opts.rounds; round++)
    for (const target of targets) rates.get(target)?.push(measure(target, payloads, opts.durationMs));

  const baseline = median(rates.get(pixUtils) ?? []);
  const widths = [20, 14, 12, 10];
  console.log(
    `decode: ${payloads.length} Brazilian Pix payloads, ${opts.rounds} rounds of ${opts.durationMs} ms each`,
  );
  console.log(formatRow(['parser', 'decodes/s', 'µs/decode', 'ratio'], widths));
  for (const target of targets) {
    const rate = median(rates.get(target) ?? []);
    console.log(
      formatRow(
        [
          target.name,
          Math.round(rate).toLocaleString('en-US'),
          (1e6 / rate).toFixed(2),
          `${(rate / baseline).toFixed(1)}x`,
        ],
        widths,
      ),
    );
  }
  const ratio = median(rates.get(ours) ?? []) / baseline;
  const passed = ratio >= DECODE_RATIO_GOAL;
  console.log(
    `ratio ours/pix-utils: ${ratio.toFixed(1)}x (goal >= ${DECODE_RATIO_GOAL}x): ${passed ? 'PASS' : 'FAIL'}`,
  );
  return passed;
}
