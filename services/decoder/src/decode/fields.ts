// The EMVCo fields every scheme shares: country, currency, amount, names, initiation, tag 62.
import { minorUnitDigits } from '@qr-payout/platform/money';
import { PointOfInitiation } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { qrDecodeError } from '../emv/errors';
import { type EmvPayload, tlvGet } from '../emv/tlv';
import type { CountryCode } from '../schemes/catalogue';

export interface CountryInfo {
  readonly currency: string;
  readonly currencyNumeric: string;
}

// docs/qr-schemes.md "Countries and currencies". Their minor-unit digits (2 for each, COP too) come
// from the one ISO 4217 table (@qr-payout/platform/money) that fx and the presenters use.
export const COUNTRIES: Readonly<Record<CountryCode, CountryInfo>> = {
  AR: { currency: 'ARS', currencyNumeric: '032' },
  BO: { currency: 'BOB', currencyNumeric: '068' },
  BR: { currency: 'BRL', currencyNumeric: '986' },
  CO: { currency: 'COP', currencyNumeric: '170' },
  PE: { currency: 'PEN', currencyNumeric: '604' },
};

/** Fields read before the country profile runs. */
export interface BaseFields {
  readonly country: CountryCode;
  /** 58 and 53 both present and naming the country and its currency. */
  readonly countryCurrencyConsistent: boolean;
  readonly amountMinor: bigint | undefined;
  readonly name: string;
  readonly city: string;
  readonly merchantCategoryCode: string;
  readonly pointOfInitiation: PointOfInitiation;
  /** 52, 53, 58, 59, 60 present. */
  readonly commonTagsPresent: boolean;
  /** Named fields of the additional data template (62). */
  readonly additionalData: Record<string, string>;
}

function isCountryCode(value: string): value is CountryCode {
  return value === 'AR' || value === 'BO' || value === 'BR' || value === 'CO' || value === 'PE';
}

// Template GUIs that only occur in one country, for QRs that omit 58 (a Prisma QR does).
function countryOfGui(gui: string): CountryCode | undefined {
  const lower = gui.toLowerCase();
  if (lower === 'br.gov.bcb.pix' || lower === 'br.gov.bcb.spi') return 'BR';
  if (lower.startsWith('co.com.')) return 'CO';
  if (lower.startsWith('bo.com.')) return 'BO';
  if (lower.startsWith('ar.com.') || AR_ONLY_GUIS.has(lower)) return 'AR';
  return undefined;
}

const AR_ONLY_GUIS = new Set(['com.yacare', 'com.todopago', 'com.spr', 'com.agr', 'com.adq', 'coop.sipago']);

function countryOfCurrency(numeric: string): CountryCode | undefined {
  for (const code of Object.keys(COUNTRIES) as CountryCode[])
    if (COUNTRIES[code].currencyNumeric === numeric) return code;
  return undefined;
}

function inferCountry(emv: EmvPayload): CountryCode | undefined {
  for (let id = 26; id <= 51; id++) {
    const template = emv.template(id);
    const gui = template ? tlvGet(template, 0) : undefined;
    const country = gui === undefined ? undefined : countryOfGui(gui);
    if (country) return country;
  }
  const currency = emv.get(53);
  return currency === undefined ? undefined : countryOfCurrency(currency);
}

function resolveCountry(emv: EmvPayload): CountryCode {
  const tagged = emv.get(58);
  if (tagged !== undefined) {
    if (isCountryCode(tagged)) return tagged;
    const upper = tagged.toUpperCase();
    if (isCountryCode(upper)) return upper;
    throw qrDecodeError(
      `Unknown country ${tagged} (tag 58): supported countries are AR, BO, BR, CO and PE.`,
      {
        country: tagged,
      },
    );
  }
  const inferred = inferCountry(emv);
  if (inferred) return inferred;
  throw qrDecodeError('Unknown country: the QR has no country code (tag 58) and nothing else names one.');
}

function checkCurrency(emv: EmvPayload, country: CountryCode): boolean {
  const tagged = emv.get(53);
  if (tagged === undefined) return false;
  const info = COUNTRIES[country];
  if (tagged === info.currencyNumeric || tagged.toUpperCase() === info.currency) return true;
  throw qrDecodeError(
    `Currency ${tagged} (tag 53) is not the currency of ${country} (${info.currencyNumeric}, ${info.currency}).`,
    { currency: tagged, country },
  );
}

/**
 * Tag 54 as minor units of a currency with `digits` minor-unit digits: digits with an optional "."
 * and at most `digits` decimals ("10." and "0.9" occur in real codes). Zero means no fixed amount:
 * wallets then ask the payer.
 */
export function parseAmountMinor(value: string, digits: number): bigint | undefined {
  // At most 13 characters, so the digits fit a double exactly (< 2^53); one BigInt at the end.
  if (value.length === 0 || value.length > 13) throw invalidAmount(value, digits);
  let units = 0;
  let decimals = -1;
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 46 && decimals < 0) {
      decimals = 0;
      continue;
    }
    if (code < 48 || code > 57) throw invalidAmount(value, digits);
    if (decimals >= 0 && ++decimals > digits) throw invalidAmount(value, digits);
    units = units * 10 + (code - 48);
    count++;
  }
  if (count === 0) throw invalidAmount(value, digits);
  const minor = units * 10 ** (digits - Math.max(decimals, 0));
  return minor === 0 ? undefined : BigInt(minor);
}

function invalidAmount(value: string, digits: number) {
  return qrDecodeError(
    `Transaction amount ${JSON.stringify(value)} (tag 54) is not a decimal number with at most ${digits} decimals.`,
  );
}

function pointOfInitiation(value: string | undefined): PointOfInitiation {
  if (value === undefined) return PointOfInitiation.UNSPECIFIED;
  if (value === '11') return PointOfInitiation.STATIC;
  if (value === '12') return PointOfInitiation.DYNAMIC;
  throw qrDecodeError(
    `Point of initiation ${JSON.stringify(value)} (tag 01) must be 11 (static) or 12 (dynamic).`,
  );
}

// EMVCo additional data field template (62) sub-ids, by the names the references use.
const ADDITIONAL_DATA_NAMES: readonly (string | undefined)[] = [
  undefined,
  'bill_number',
  'mobile_number',
  'store_label',
  'loyalty_number',
  'reference_label',
  'customer_label',
  'terminal_label',
  'purpose',
];

function additionalData(emv: EmvPayload): Record<string, string> {
  const out: Record<string, string> = {};
  const template = emv.template(62);
  if (!template) return out;
  for (let i = 0; i < template.ids.length; i++) {
    const name = ADDITIONAL_DATA_NAMES[template.ids[i] as number];
    const value = template.values[i] as string;
    // "***" is the BR Code's "no value" marker.
    if (name !== undefined && value !== '' && value !== '***') out[name] = value;
  }
  return out;
}

function hasMerchantAccount(emv: EmvPayload): boolean {
  const { ids } = emv.objects;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (id >= 2 && id <= 51) return true;
  }
  return false;
}

export function readBaseFields(emv: EmvPayload): BaseFields {
  if (!hasMerchantAccount(emv))
    throw qrDecodeError('Not a payment QR: it has no merchant account information (tags 02 to 51).');
  const country = resolveCountry(emv);
  const currencyPresent = checkCurrency(emv, country);
  const amount = emv.get(54);
  const countryTagged = emv.get(58) !== undefined;
  const name = emv.get(59);
  const city = emv.get(60);
  const merchantCategoryCode = emv.get(52);
  return {
    country,
    countryCurrencyConsistent: currencyPresent && countryTagged,
    amountMinor:
      amount === undefined
        ? undefined
        : parseAmountMinor(amount, minorUnitDigits(COUNTRIES[country].currency)),
    name: name ?? '',
    city: city ?? '',
    merchantCategoryCode: merchantCategoryCode ?? '',
    pointOfInitiation: pointOfInitiation(emv.get(1)),
    commonTagsPresent:
      merchantCategoryCode !== undefined &&
      currencyPresent &&
      countryTagged &&
      name !== undefined &&
      city !== undefined,
    additionalData: additionalData(emv),
  };
}
