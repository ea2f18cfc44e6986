// United States taxpayer numbers (docs/payer-identity.md "Documents"). None has a check digit;
// each has ranges the IRS or SSA never assigns, which is what can be checked. Inputs: 9 digits.

// Numbers the SSA voided after they were published (advertising, a wallet insert).
const VOIDED_SSNS = new Set(['078051120', '219099999']);

/** SSN: area 001-899 except 666, group 01-99, serial 0001-9999. */
export function isValidSsn(value: string): boolean {
  if (!/^\d{9}$/.test(value) || VOIDED_SSNS.has(value)) return false;
  const area = value.slice(0, 3);
  return (
    area !== '000' &&
    area !== '666' &&
    area[0] !== '9' &&
    value.slice(3, 5) !== '00' &&
    value.slice(5) !== '0000'
  );
}

/** ITIN: starts with 9, and the 4th-5th digits are 50-65, 70-88, 90-92 or 94-99 (IRS). */
export function isValidItin(value: string): boolean {
  if (!/^9\d{8}$/.test(value)) return false;
  const group = Number(value.slice(3, 5));
  return (
    (group >= 50 && group <= 65) ||
    (group >= 70 && group <= 88) ||
    (group >= 90 && group <= 92) ||
    group >= 94
  );
}

// The prefixes the IRS assigns EINs under (its "valid EIN prefixes" list).
const EIN_PREFIX_RANGES: readonly (readonly [number, number])[] = [
  [1, 6],
  [10, 16],
  [20, 27],
  [30, 48],
  [50, 68],
  [71, 77],
  [80, 88],
  [90, 95],
  [98, 99],
];

/** EIN: 9 digits under a prefix the IRS assigns. */
export function isValidEin(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const prefix = Number(value.slice(0, 2));
  return EIN_PREFIX_RANGES.some(([from, to]) => prefix >= from && prefix <= to);
}
