// The fuzz stage's POST /v1/pay requests (docs/testing.md "Fuzz"): bodies written as raw text, so
// every number reaches the gateway exactly as written (`12.3499999999999999999`, `1.25e1`, `-0`),
// with duplicate, unknown, escaped and wrongly typed keys, nested junk and broken JSON, under an
// Idempotency-Key or none. Each case keeps its members, so the check knows what amount it wrote.
import { randomUUID } from 'node:crypto';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import fc from 'fast-check';
import { fieldText, type QrCase } from './fuzz-qr';

/** One `"key": value` of the top-level object, as written. */
export interface Member {
  /** The key as the server reads it (after JSON escapes). */
  key: string;
  /** The key as written, quotes and escapes included. */
  keyText: string;
  valueText: string;
  /** The QR whose text this qr_string member carries. */
  qr?: QrCase;
}

/** How the members reach the wire: as an object, or inside or beside something else. */
export type Wrap =
  | { kind: 'object' }
  | { kind: 'bom' }
  | { kind: 'array' }
  | { kind: 'trailing'; junk: string }
  | { kind: 'truncated'; at: number }
  | { kind: 'deep'; depth: number; open: '[' | '{"a":' }
  | { kind: 'oversized' }
  | { kind: 'text'; text: string };

export interface PayCase {
  /** What the case's counterexample prints: describePayCase. */
  [fc.toStringMethod]?: () => string;
  members: Member[];
  wrap: Wrap;
  /** Whitespace written between tokens. */
  space: string;
  contentType: string;
  idempotencyKey: string | undefined;
  /** The request body as sent. */
  text: string;
}

/** The payers of docs/api/sandbox.md "How to use them" and the test kit, as raw members. */
const PAYERS: Record<string, string>[] = [
  PAYER,
  {
    payer_name: 'Jane Doe',
    payer_account: 'US-0001-1234567',
    payer_tax_id: 'X12345678',
    payer_country: 'US',
    payer_id_type: 'passport',
  },
];

/** Any JSON value as text, of any shape, nested a few levels. */
const jsonJunk: fc.Arbitrary<string> = fc.oneof(
  fc.json({ depthSize: 'small' }),
  fieldText.map((text) => JSON.stringify(text)),
  fc.constantFrom('null', 'true', '[]', '{}', '""', '[[[[[]]]]]', '{"amount":1}', '{"__proto__x":1}'),
);

/** A whole number of minor units as a JSON number in one of the forms that all mean it. */
export function writtenForm(minor: bigint, form: number): string {
  const whole = minor / 100n;
  const cents = minor % 100n;
  const twoDigits = cents.toString().padStart(2, '0');
  switch (form % 7) {
    case 0:
      return `${whole}.${twoDigits}`;
    case 1:
      return cents === 0n ? `${whole}` : `${whole}.${twoDigits.replace(/0$/, '')}`;
    case 2:
      return `${minor}e-2`;
    case 3:
      return `${minor}0E-3`;
    case 4:
      return `${whole}.${twoDigits}000`;
    case 5:
      return `0.${minor}e${minor.toString().length - 2}`;
    default:
      return `${minor}00e-4`;
  }
}

/** A payable amount: mostly below 100,000.00, its cents sometimes a sandbox outcome (docs/api/sandbox.md "Test amounts"). */
const payableMinor: fc.Arbitrary<bigint> = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.bigInt({ min: 0n, max: 99_999n }) },
      { weight: 1, arbitrary: fc.bigInt({ min: 100_000n, max: 99_999_999n }) },
    ),
    fc.oneof(
      { weight: 12, arbitrary: fc.bigInt({ min: 0n, max: 99n }) },
      { weight: 3, arbitrary: fc.constantFrom(51n, 52n, 53n) },
      { weight: 1, arbitrary: fc.constant(54n) },
    ),
  )
  .map(([whole, cents]) => (whole * 100n + cents === 0n ? 1n : whole * 100n + cents));

const digitString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** Numbers a JSON parser or a money conversion gets wrong: too precise, huge, tiny, negative, -0, not JSON. */
const hostileNumber: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...['12.3499999999999999999', '-0', '-0.0', '0', '0.00', '0e0', '-12.5', '1e400', '-1e400', '1e-400'],
    ...['12.345', '12.340000000000001', '99999999999999.99', '90071992547409.91', '9007199254740993', '1e21'],
    ...['9223372036854775807', '92233720368547758.07', '92233720368547758.08', '9e16', '9e17', '1E2', '1e+2'],
    ...[
      '0.1e1',
      '123456789012345678901234567890e-28',
      '5e-324',
      '1.7976931348623157e308',
      '100.000000000000000001',
    ],
  ),
  fc
    .tuple(
      fc.boolean(),
      digitString(1, 30),
      fc.option(digitString(1, 30)),
      fc.option(fc.integer({ min: -400, max: 400 })),
    )
    .map(([negative, whole, fraction, exponent]) => {
      const digits = whole.replace(/^0+(?=\d)/, '');
      return `${negative ? '-' : ''}${digits}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`;
    }),
  // Not JSON numbers at all.
  fc.constantFrom(
    '012',
    '.5',
    '5.',
    '+5',
    '0x10',
    'NaN',
    'Infinity',
    '-Infinity',
    '1_000',
    '١٢',
    '12,34',
    '1e',
    '--1',
  ),
);

/**
 * The amount members, knowing what the QR writes: for a clean request none, null or the QR's own
 * when it writes one, else a payable amount, in any form; for a fuzzed one also junk, wrong types
 * and the key twice.
 */
function amountMembers(qr: QrCase, clean: boolean): fc.Arbitrary<string[]> {
  const payable = fc.tuple(payableMinor, fc.nat()).map(([minor, form]) => writtenForm(minor, form));
  const theQrs =
    qr.writtenMinor.length > 0
      ? fc
          .tuple(fc.constantFrom(...qr.writtenMinor), fc.nat())
          .map(([minor, form]) => writtenForm(minor, form))
      : payable;
  const wrongType = fc.constantFrom('"12.34"', 'true', '[12.34]', '{"value":12.34}', '""', '"1e2"');
  const one = (value: fc.Arbitrary<string>) => value.map((text) => [text]);
  if (clean)
    return qr.writtenMinor.length > 0
      ? fc.oneof(fc.constant<string[]>([]), fc.constant<string[]>(['null']), one(theQrs))
      : one(payable);
  return qr.writtenMinor.length > 0
    ? fc.oneof(
        { weight: 8, arbitrary: fc.constant<string[]>([]) },
        { weight: 2, arbitrary: fc.constant<string[]>(['null']) },
        { weight: 3, arbitrary: one(theQrs) },
        { weight: 1, arbitrary: one(payable) },
        { weight: 1, arbitrary: one(hostileNumber) },
        { weight: 1, arbitrary: one(wrongType) },
        {
          weight: 1,
          arbitrary: fc.tuple(theQrs, fc.oneof(theQrs, payable, hostileNumber)).map((pair): string[] => pair),
        },
      )
    : fc.oneof(
        { weight: 12, arbitrary: one(payable) },
        { weight: 1, arbitrary: fc.constant<string[]>([]) },
        { weight: 1, arbitrary: fc.constant<string[]>(['null']) },
        { weight: 3, arbitrary: one(hostileNumber) },
        { weight: 1, arbitrary: one(wrongType) },
        {
          weight: 1,
          arbitrary: fc.tuple(payable, fc.oneof(payable, hostileNumber)).map((pair): string[] => pair),
        },
      );
}

/** A key as written: plain, or with every other character as a \u escape (the same key to a parser). */
function keyText(key: string, escaped: boolean): string {
  if (!escaped) return JSON.stringify(key);
  const written = [...key].map((c, i) => {
    const code = c.codePointAt(0) ?? 0;
    return i % 2 === 0 && code <= 0xffff
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : JSON.stringify(c).slice(1, -1);
  });
  return `"${written.join('')}"`;
}

function asMembers(payer: Record<string, string>): [string, string][] {
  return Object.entries(payer).map(([key, value]) => [key, JSON.stringify(value)]);
}

const payerMembers: fc.Arbitrary<[string, string][]> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYERS).map(asMembers) },
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          payer_name: fc.oneof(
            fieldText.map((t) => JSON.stringify(t)),
            jsonJunk,
          ),
          payer_account: fc.oneof(
            fieldText.map((t) => JSON.stringify(t)),
            jsonJunk,
          ),
          payer_tax_id: fc.oneof(
            fieldText.map((t) => JSON.stringify(t)),
            jsonJunk,
          ),
          payer_country: fc.oneof(fc.constantFrom('"BR"', '"AR"', '"US"', '"ZZ"', '"br"', 'null'), jsonJunk),
          payer_id_type: fc.oneof(
            fc.constantFrom('"tax_id"', '"passport"', '"national_id"', 'null'),
            jsonJunk,
          ),
        },
        { requiredKeys: [] },
      )
      .map((record) => Object.entries(record) as [string, string][]),
  },
);

/** The optional members and keys no route knows, some with nested junk. */
const otherMembers: fc.Arbitrary<[string, string][]> = fc
  .record(
    {
      wallet_currency: fc.oneof(
        fc.constantFrom('"USD"', '"EUR"', '"BRL"', '"usd"', '"XXX"', 'null'),
        jsonJunk,
      ),
      callback_url: fc.oneof(
        fc.constantFrom('"http://127.0.0.1:9/hook"', '"https://example.invalid/hook"', '"ftp://x"', 'null'),
        jsonJunk,
      ),
      unknown: fc.array(
        fc.tuple(
          fc.oneof(fieldText, fc.constantFrom('Amount', 'amount ', 'qr', '__proto__', 'constructor')),
          jsonJunk,
        ),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    },
    { requiredKeys: [] },
  )
  .map(({ unknown, ...known }) => [...(Object.entries(known) as [string, string][]), ...(unknown ?? [])]);

const wrapArb: fc.Arbitrary<Wrap> = fc.oneof(
  { weight: 60, arbitrary: fc.constant({ kind: 'object' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'array' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('trailing' as const),
      junk: fc.constantFrom('x', '{}', ',', '\u0000', ' 1'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncated' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.integer({ min: 500, max: 10_000 }),
      open: fc.constantFrom('[' as const, '{"a":' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'oversized' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.oneof(fieldText, fc.json()) }),
  },
);

const idempotencyKeyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 40, arbitrary: fc.constant('uuid') },
  { weight: 5, arbitrary: fc.constant(undefined) },
  // Shared by many cases, so replays, conflicts and requests in progress happen.
  { weight: 4, arbitrary: fc.constantFrom('fuzz-shared-1', 'fuzz-shared-2', 'fuzz-shared-3') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 255 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 256, maxLength: 300 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '   ', 'a, b') },
  // Bytes HTTP refuses in a header, and Latin-1 letters (fetch sends both; it refuses only CR, LF, NUL).
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc
        .integer({ min: 1, max: 0xff })
        .filter((c) => c !== 10 && c !== 13)
        .map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 40,
    }),
  },
);

const contentTypeArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 30, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
    ),
  },
);

function bodyText(members: readonly Member[], wrap: Wrap, space: string): string {
  const object = `{${space}${members.map((m) => `${m.keyText}${space}:${space}${m.valueText}`).join(`,${space}`)}${space}}`;
  switch (wrap.kind) {
    case 'object':
      return object;
    case 'bom':
      return `\ufeff${object}`;
    case 'array':
      return `[${object}]`;
    case 'trailing':
      return `${object}${wrap.junk}`;
    case 'truncated':
      return object.slice(0, wrap.at % object.length);
    case 'deep':
      return `${object.slice(0, -1)},"nested":${wrap.open.repeat(wrap.depth)}1${(wrap.open === '[' ? ']' : '}').repeat(wrap.depth)}}`;
    case 'oversized':
      return `${object.slice(0, -1)},"padding":"${'x'.repeat(70 * 1024)}"}`;
    case 'text':
      return wrap.text;
  }
}

/**
 * Pay requests for QR cases: half clean (an object of the documented members, a payer the sandbox
 * pays, a fresh Idempotency-Key, sometimes wallet_currency), half fuzzed in every member, key,
 * header and in the text around the object.
 */
export function payCaseArb(qrCases: fc.Arbitrary<QrCase>): fc.Arbitrary<PayCase> {
  const order = fc.array(fc.nat(), { minLength: 16, maxLength: 16 });
  return qrCases.chain((qr) =>
    fc
      .oneof(
        fc.record({
          qrMember: fc.constant('qr'),
          amounts: amountMembers(qr, true),
          payer: fc.constantFrom(...PAYERS).map(asMembers),
          others: fc.oneof(
            { weight: 4, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: fc.constant<[string, string][]>([['wallet_currency', '"USD"']]) },
          ),
          order,
          escaped: fc.constant<boolean[]>([]),
          wrap: fc.constant<Wrap>({ kind: 'object' }),
          space: fc.constant(''),
          contentType: fc.constant('application/json'),
          idempotencyKey: fc.constant<string | undefined>('uuid'),
        }),
        fc.record({
          qrMember: fc.oneof(
            { weight: 20, arbitrary: fc.constant('qr') },
            { weight: 1, arbitrary: fc.constant('absent') },
            { weight: 1, arbitrary: jsonJunk },
          ),
          amounts: amountMembers(qr, false),
          payer: payerMembers,
          others: fc.option(otherMembers, { freq: 2 }),
          order,
          escaped: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
          wrap: wrapArb,
          space: fc.oneof(
            { weight: 6, arbitrary: fc.constant('') },
            { weight: 1, arbitrary: fc.constantFrom(' ', '\n', '\t', '\r\n  ') },
          ),
          contentType: contentTypeArb,
          idempotencyKey: idempotencyKeyArb,
        }),
      )
      .map((c): PayCase => {
        const entries: { key: string; valueText: string; qr?: QrCase }[] = [
          ...(c.qrMember === 'qr' ? [{ key: 'qr_string', valueText: JSON.stringify(qr.text), qr }] : []),
          ...(c.qrMember !== 'qr' && c.qrMember !== 'absent'
            ? [{ key: 'qr_string', valueText: c.qrMember }]
            : []),
          ...c.amounts.map((valueText) => ({ key: 'amount', valueText })),
          ...c.payer.map(([key, valueText]) => ({ key, valueText })),
          ...(c.others ?? []).map(([key, valueText]) => ({ key, valueText })),
        ];
        const members = entries
          .map((entry, i) => ({
            entry,
            rank: c.order[i % c.order.length] ?? 0,
            escaped: c.escaped[i % 16] === true && i % 5 === 0,
          }))
          .sort((a, b) => a.rank - b.rank)
          .map(({ entry, escaped }) => ({ ...entry, keyText: keyText(entry.key, escaped) }));
        const payCase: PayCase = {
          members,
          wrap: c.wrap,
          space: c.space,
          contentType: c.contentType,
          idempotencyKey: c.idempotencyKey === 'uuid' ? randomUUID() : c.idempotencyKey,
          text: bodyText(members, c.wrap, c.space),
        };
        payCase[fc.toStringMethod] = () => describePayCase(payCase);
        return payCase;
      }),
  );
}

/**
 * Why paying `paidMinor` for this request would pay an amount it did not write, or undefined when
 * the amount is the one written: every `amount` the body gives as a number (null is no amount), or
 * without one, an amount its QR writes (docs/api/resources.md "Money").
 */
export function wrongAmount(
  c: PayCase,
  paidMinor: bigint,
  exact: (literal: string) => bigint | undefined,
): string | undefined {
  const amounts = c.members.filter((m) => m.key === 'amount' && m.valueText !== 'null');
  if (amounts.length > 0) {
    for (const m of amounts) {
      const written = exact(m.valueText);
      if (written === undefined)
        return `paid ${paidMinor} minor units; the body's amount ${m.valueText} is no payable amount`;
      if (written !== paidMinor)
        return `paid ${paidMinor} minor units; the body wrote amount ${m.valueText} (${written})`;
    }
    return undefined;
  }
  const fromQr = c.members.flatMap((m) => m.qr?.writtenMinor ?? []);
  if (!fromQr.includes(paidMinor))
    return `paid ${paidMinor} minor units without an amount in the body; the QR writes ${fromQr.length === 0 ? 'none' : fromQr.join(', ')}`;
  return undefined;
}

/** A text with every run of one short unit repeated 16 times or more written once with its count. */
function abbreviated(text: string): string {
  return text.replace(
    /(.{1,8}?)\1{15,}/gs,
    (run, unit: string) => `⟨${JSON.stringify(unit)} × ${run.length / unit.length}⟩`,
  );
}

/** The request as sent, short enough to read in a report: headers, body (JSON-escaped) and its QR's making. */
export function describePayCase(c: PayCase): string {
  const qr = c.members.find((m) => m.qr)?.qr;
  return [
    `content-type: ${c.contentType}`,
    `idempotency-key: ${c.idempotencyKey === undefined ? '(none)' : JSON.stringify(c.idempotencyKey)}`,
    `body (${c.text.length} characters): ${abbreviated(JSON.stringify(c.text))}`,
    ...(qr ? [`qr: ${qr.base}; ops ${JSON.stringify(qr.ops)}; tail ${JSON.stringify(qr.tail)}`] : []),
  ].join('\n');
}
