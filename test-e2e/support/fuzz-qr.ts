// The fuzz stage's QR codes (docs/testing.md "Fuzz"): EMVCo payloads with a correct CRC built by the
// decoder's encoder around the test kit's merchant QRs and the partner simulator's dynamic Pix
// charges, then changed by a list of operations (any characters in any field, values up to the
// 99-character TLV limit, empty values, mandatory fields dropped, fields repeated, templates
// 26–51/62/64/80–99 with random sub-ids). Each case carries the amounts the QR itself writes, what
// a payment of it may be for (docs/qr-schemes.md "EMVCo TLV": tag 54; a dynamic charge's own amount).
import { type EmvObject, encodeMerchantQr, encodeTlv } from '@qr-payout/decoder';
import { MERCHANT_QRS, PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import fc from 'fast-check';
import { qrAmountMinorUnits } from './fuzz-amounts';

/** A QR to start from: its data objects (63 left out: the encoder writes it). */
export interface QrBase {
  label: string;
  objects: EmvObject[];
}

/** A dynamic Pix charge made at the partner simulator: its location and the amount it asks. */
export interface PixCharge {
  location: string;
  amountMinor: bigint;
  qrString: string;
}

/** One change to a QR's data objects, kept as data so a counterexample says what was done. */
export type QrOp =
  | { op: 'set'; id: number; value: string }
  | { op: 'drop'; id: number }
  | { op: 'repeat'; id: number; value: string | undefined }
  | { op: 'template'; id: number; subs: [number, string][] }
  | { op: 'sub'; id: number; sub: number; value: string }
  | { op: 'location'; location: string; keepKey: boolean }
  | { op: 'reverse' };

/** What happens to the encoded text: nothing, or a change the CRC no longer covers. */
export type QrTail =
  | { kind: 'none' }
  | { kind: 'surround'; before: string; after: string }
  | { kind: 'lower-crc' }
  | { kind: 'broken-crc' }
  | { kind: 'truncate'; at: number }
  | { kind: 'twice' };

export interface QrCase {
  base: string;
  ops: QrOp[];
  tail: QrTail;
  /** The qr_string sent. */
  text: string;
  /** Every amount the QR writes: its tag 54 values and the amounts of the charges it points at. */
  writtenMinor: bigint[];
}

const TEMPLATE_IDS = [...range(26, 51), 62, 64, ...range(80, 99)];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Code points, as EMVCo lengths count them (docs/qr-schemes.md "EMVCo TLV"). */
function codePoints(text: string): string[] {
  return Array.from(text);
}

function clamp(text: string, max = 99): string {
  const points = codePoints(text);
  return points.length <= max ? text : points.slice(0, max).join('');
}

/** Reads a payload (or a template) the test kit built back into data objects; 63 is left out. */
export function readEmvObjects(text: string, nested = true): EmvObject[] {
  const points = codePoints(text);
  const objects: EmvObject[] = [];
  let at = 0;
  while (at + 4 <= points.length) {
    const id = Number(points.slice(at, at + 2).join(''));
    const length = Number(points.slice(at + 2, at + 4).join(''));
    const value = points.slice(at + 4, at + 4 + length).join('');
    at += 4 + length;
    if (id === 63) continue;
    objects.push({ id, value: nested && TEMPLATE_IDS.includes(id) ? readEmvObjects(value, false) : value });
  }
  return objects;
}

/** The test kit's merchant QRs of every country, and the Pix QR without an amount. */
export function testKitBases(): QrBase[] {
  return [
    ...MERCHANT_QRS.map((qr) => ({ label: qr.label, objects: readEmvObjects(qr.qrString) })),
    { label: 'Brazil, static Pix without an amount', objects: readEmvObjects(PIX_WITHOUT_AMOUNT) },
  ];
}

/** Characters that have broken parsers and screens: controls, bidi marks, lone surrogates, TLV look-alikes. */
const hostileUnit: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(
    ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'],
    ...['\u200e', '\u200f', '\u061c', '\u200b', '\u00a0', '\ufeff', '\ufffd', '\u2028'],
  ),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(
    '6304',
    '000201',
    '010211',
    '5303986',
    '5802BR',
    '540512.34',
    '0014br.gov.bcb.pix',
    '"',
    '\\',
  ),
);

const anyUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: hostileUnit },
);

/** Any text for a field: empty, short, or up to the 99-character TLV limit; any characters. */
export const fieldText: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 6, arbitrary: fc.string({ unit: anyUnit, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.string({ unit: anyUnit, minLength: 60, maxLength: 99 }) },
  )
  .map((text) => clamp(text));

/** Text a merchant could really write in a name or city: letters, accents, emoji, no controls. */
const merchantText: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz0123456789'),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('É', 'Á', 'ñ', 'ç', 'ü', 'ã', '&', '.', '-', "'", '😀', '中', '𝔸'),
    },
  ),
  minLength: 1,
  maxLength: 25,
});

/** Tag 54 values: amounts as EMVCo writes them ("12.34", "10.", "0.9"), and ones it does not. */
const qrAmountText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 0, max: 99_999 }),
        fc.constantFrom('', '.', '.5', '.05', '.51', '.52', '.53', '.99'),
      )
      .map(([whole, cents]) => `${whole}${cents}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0',
      '0.00',
      '.5',
      '00012.30',
      '1e2',
      '-5',
      '12.345',
      '12,34',
      '１２',
      ' 12',
      '9999999999999',
    ),
  },
  { weight: 1, arbitrary: fieldText },
);

const subId = fc.integer({ min: 0, max: 98 }).map((id) => (id >= 25 ? id + 1 : id)); // 25 (a location) only by 'location'

const guiText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'br.gov.bcb.pix',
    'BR.GOV.BCB.PIX',
    'co.com.rbm.lla',
    'CO.COM.RBM.RED',
    'bo.com.atc',
    'ar.com.x',
  ),
  fc.constantFrom('com.yacare', 'coop.sipago', 'pe.com.yape', 'com.example'),
  fieldText,
);

const templateSubs: fc.Arbitrary<[number, string][]> = fc.oneof(
  fc.array(fc.tuple(subId, fieldText), { maxLength: 4 }),
  fc
    .tuple(guiText, fc.array(fc.tuple(subId, fieldText), { maxLength: 3 }))
    .map(([gui, rest]): [number, string][] => [[0, gui], ...rest]),
);

/** Where a dynamic Pix code may point: real charges, unknown ones, places nothing answers, junk. */
function locationText(charges: readonly PixCharge[], simHost: string): fc.Arbitrary<string> {
  const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });
  return fc.oneof(
    ...(charges.length > 0
      ? [{ weight: 3, arbitrary: fc.constantFrom(...charges.map((c) => c.location)) }]
      : []),
    { weight: 1, arbitrary: hex.map((id) => `${simHost}/pix/v2/qr/${id}`) },
    { weight: 1, arbitrary: fc.constantFrom('127.0.0.1:9/qr/1', 'localhost/qr', '[::1]/qr', '10.0.0.1/qr') },
    { weight: 1, arbitrary: hex.map((id) => `fuzz-${id.slice(0, 8)}.invalid/pix/v2/qr/${id}`) },
    // Refused before any fetch: a scheme, a space, a non-ASCII character, credentials, too long.
    { weight: 1, arbitrary: fieldText.map((text) => `https://${simHost}/${text}`) },
    { weight: 1, arbitrary: fieldText.map((text) => `${simHost}/ ${text}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(`user:pw@${simHost}/qr`, `${simHost}/${'x'.repeat(80)}`, '/qr', ''),
    },
  );
}

function qrOp(charges: readonly PixCharge[], simHost: string): fc.Arbitrary<QrOp> {
  const topId = fc.oneof(
    fc.constantFrom(0, 1, 52, 53, 54, 58, 59, 60, 62, 63, 64),
    fc.integer({ min: 0, max: 99 }),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), id: topId, value: fieldText }) },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('set' as const), id: fc.constant(54), value: qrAmountText }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('drop' as const), id: topId }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('repeat' as const),
        id: topId,
        value: fc.option(fieldText, { nil: undefined }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('template' as const),
        id: fc.constantFrom(...TEMPLATE_IDS),
        subs: templateSubs,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('sub' as const),
        id: fc.constantFrom(26, 32, 39, 49, 50, 51, 62, 64, 80),
        sub: subId,
        value: fieldText,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('location' as const),
        location: locationText(charges, simHost),
        keepKey: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ op: 'reverse' as const }) },
  );
}

/** A template's value within 99 characters: sub-fields dropped from the end until it fits. */
function fitted(subs: readonly EmvObject[]): EmvObject[] {
  const kept = [...subs];
  while (
    kept.length > 0 &&
    codePoints(encodeTlv(kept.map((s) => ({ id: s.id, value: clamp(String(s.value)) })))).length > 99
  )
    kept.pop();
  return kept.map((s) => ({ id: s.id, value: clamp(String(s.value)) }));
}

function isPixTemplate(object: EmvObject): boolean {
  return (
    Array.isArray(object.value) &&
    object.value.some((sub) => sub.id === 0 && String(sub.value).toLowerCase() === 'br.gov.bcb.pix')
  );
}

function applyOp(objects: EmvObject[], op: QrOp): EmvObject[] {
  switch (op.op) {
    case 'set': {
      const at = objects.findIndex((o) => o.id === op.id);
      const object = { id: op.id, value: op.value };
      return at < 0 ? [...objects, object] : objects.map((o, i) => (i === at ? object : o));
    }
    case 'drop':
      return objects.filter((o) => o.id !== op.id);
    case 'repeat': {
      const first = objects.find((o) => o.id === op.id);
      return [...objects, { id: op.id, value: op.value ?? first?.value ?? '' }];
    }
    case 'template':
      return [
        ...objects.filter((o) => o.id !== op.id),
        { id: op.id, value: fitted(op.subs.map(([id, value]) => ({ id, value }))) },
      ];
    case 'sub': {
      const at = objects.findIndex((o) => o.id === op.id);
      const subs = at >= 0 && Array.isArray(objects[at]?.value) ? (objects[at]?.value as EmvObject[]) : [];
      const value = fitted([...subs.filter((s) => s.id !== op.sub), { id: op.sub, value: op.value }]);
      return at < 0
        ? [...objects, { id: op.id, value }]
        : objects.map((o, i) => (i === at ? { id: op.id, value } : o));
    }
    case 'location': {
      const at = objects.findIndex(isPixTemplate);
      const subs = at >= 0 ? (objects[at]?.value as EmvObject[]) : [{ id: 0, value: 'br.gov.bcb.pix' }];
      const kept = subs.filter((s) => s.id !== 25 && (op.keepKey || s.id !== 1));
      const value = fitted([...kept, { id: 25, value: op.location }]);
      return at < 0
        ? [...objects, { id: 26, value }]
        : objects.map((o, i) => (i === at ? { id: o.id, value } : o));
    }
    case 'reverse':
      return [...objects].reverse();
  }
}

function applyTail(text: string, tail: QrTail): string {
  switch (tail.kind) {
    case 'none':
      return text;
    case 'surround':
      return `${tail.before}${text}${tail.after}`;
    case 'lower-crc':
      return text.slice(0, -4) + text.slice(-4).toLowerCase();
    case 'broken-crc':
      return text.slice(0, -4) + (text.endsWith('0000') ? '0001' : '0000');
    case 'truncate':
      return text.slice(0, tail.at % Math.max(1, text.length));
    case 'twice':
      return `${text}${text}`;
  }
}

/** The amounts a QR's own objects write: its tag 54 values, and the charges its locations name. */
function writtenAmounts(objects: readonly EmvObject[], charges: readonly PixCharge[]): bigint[] {
  const amounts: bigint[] = [];
  for (const object of objects) {
    if (object.id === 54 && typeof object.value === 'string') {
      const minor = qrAmountMinorUnits(object.value);
      if (minor !== undefined) amounts.push(minor);
    }
    if (Array.isArray(object.value))
      for (const sub of object.value as EmvObject[]) {
        const charge = sub.id === 25 ? charges.find((c) => c.location === sub.value) : undefined;
        if (charge) amounts.push(charge.amountMinor);
      }
  }
  return amounts;
}

const tailArb: fc.Arbitrary<QrTail> = fc.oneof(
  { weight: 24, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('surround' as const),
      before: fc.constantFrom('', ' ', '\n', '\u00a0', '\u200b', '\ufeff'),
      after: fc.constantFrom('', '\n', '\r\n', '\t', ' \u200b'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'lower-crc' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'broken-crc' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'twice' as const }) },
);

/**
 * QR cases: half a base as it is or with a real-world name, city and amount, the other half changed
 * by one to five operations; the CRC is right unless the tail changes the text after encoding.
 */
export function qrCaseArb(
  bases: readonly QrBase[],
  charges: readonly PixCharge[],
  simHost: string,
): fc.Arbitrary<QrCase> {
  const chargeBases: QrBase[] = charges.map((charge, i) => ({
    label: `dynamic Pix charge ${i}`,
    objects: readEmvObjects(charge.qrString),
  }));
  // A charge is paid once, then refused: most cases start from the test kit's codes.
  const base = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...bases) },
    ...(chargeBases.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...chargeBases) }] : []),
  );
  const realWorld: fc.Arbitrary<QrOp[]> = fc
    .tuple(
      merchantText,
      merchantText,
      fc.option(
        qrAmountText.filter((t) => qrAmountMinorUnits(t) !== undefined),
        { freq: 3 },
      ),
    )
    .map(([name, city, amount]): QrOp[] => [
      { op: 'set', id: 59, value: name },
      { op: 'set', id: 60, value: clamp(city, 15) },
      ...(amount === null ? [] : [{ op: 'set' as const, id: 54, value: amount }]),
    ]);
  const clean = fc.record({
    base,
    ops: fc.oneof(fc.constant<QrOp[]>([]), realWorld),
    tail: fc.constant<QrTail>({ kind: 'none' }),
  });
  const fuzzed = fc.record({
    base,
    ops: fc.array(qrOp(charges, simHost), { minLength: 1, maxLength: 5 }),
    tail: tailArb,
  });
  return fc.oneof(clean, fuzzed).map(({ base, ops, tail }) => {
    const objects = ops.reduce(applyOp, base.objects);
    return {
      base: base.label,
      ops,
      tail,
      text: applyTail(encodeMerchantQr(objects), tail),
      writtenMinor: writtenAmounts(objects, charges),
    };
  });
}
