// Money at the JSON edge (docs/api/resources.md "Money"): inside the system an amount is an
// integer count of ISO 4217 minor units (bigint); the public API shows it as a JSON number with at
// most the currency's minor-unit digits. The one table of those digits and the one conversion:
// fx decides which currencies it quotes (its FX_RATES must agree with this table), the decoder
// and payout read the digits of the QR and rail currencies here, and the presenters convert with it.

/**
 * ISO 4217 minor-unit digits of every active currency code (the standard's list one, "Current
 * currency & funds code list"). Codes whose digits the standard gives as "N.A." (precious metals,
 * XDR, XSU, XUA, XTS, XXX) are left out: no amount in them is ever shown.
 */
const ISO_4217_MINOR_UNIT_DIGITS: Readonly<Record<string, number>> = Object.freeze({
  ...digitsOf(0, 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'),
  ...digitsOf(3, 'BHD IQD JOD KWD LYD OMR TND'),
  ...digitsOf(4, 'CLF UYW'),
  ...digitsOf(
    2,
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN ' +
      'BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP ' +
      'GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK ' +
      'LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK ' +
      'NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD ' +
      'SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG ' +
      'YER ZAR ZMW ZWG ZWL',
  ),
});

function digitsOf(digits: number, codes: string): Record<string, number> {
  return Object.fromEntries(codes.split(' ').map((code) => [code, digits]));
}

/**
 * The shape of an ISO 4217 alphabetic code, as the public API's JSON Schemas write it: three
 * upper-case letters. Whether a code is a real currency is `isIso4217Currency`; whether fx quotes
 * it is fx's to say (docs/api/fx-and-confidence.md "Wallet currencies").
 */
export const CURRENCY_CODE_PATTERN = '^[A-Z]{3}$';
const CURRENCY_CODE = new RegExp(CURRENCY_CODE_PATTERN);

/** Whether `code` has the shape of an ISO 4217 alphabetic code (CURRENCY_CODE_PATTERN). */
export function isCurrencyCode(code: string): boolean {
  return CURRENCY_CODE.test(code);
}

/** Whether `code` is an active ISO 4217 currency with minor-unit digits. */
export function isIso4217Currency(code: string): boolean {
  return Object.hasOwn(ISO_4217_MINOR_UNIT_DIGITS, code);
}

/**
 * ISO 4217 minor-unit digits of `currency`. Throws for a code the table lacks: every currency that
 * reaches a conversion comes from the decoder's countries, the rails or fx's checked rate table, so
 * an unknown one is a bug, and guessing its digits would show an amount off by a power of ten.
 */
export function minorUnitDigits(currency: string): number {
  const digits = isIso4217Currency(currency) ? ISO_4217_MINOR_UNIT_DIGITS[currency] : undefined;
  if (digits === undefined)
    throw new Error(`minor-unit digits of ${JSON.stringify(currency)} unknown: not an ISO 4217 currency`);
  return digits;
}

/** Integer minor units as decimal text in major units (`100000000n` BRL → `1000000.00`), no float. */
export function minorUnitsText(minor: bigint, currency: string): string {
  const digits = minorUnitDigits(currency);
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return `${negative ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}`;
}

/**
 * Integer minor units as the JSON number the API shows. Built as a decimal string and parsed, no
 * float arithmetic: `1234n` BRL is the number written `12.34`, exactly as a client's JSON parser
 * reads "12.34".
 */
export function fromMinorUnits(minor: bigint, currency: string): number {
  return Number(minorUnitsText(minor, currency));
}
