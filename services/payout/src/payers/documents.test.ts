import type { PayerIdType } from '@qr-payout/platform/payer-fields';
import fc from 'fast-check';
import { documentRule } from './documents';

const accepts = (country: string, idType: PayerIdType, id: string) =>
  documentRule(country, idType)!.check(id).ok;

// Check digits computed here from their published rules, to generate valid ids of any value.
function cuitOf(base: string): string | undefined {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = [...base].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? undefined : base + String(check); // 10: no CUIT has this base
}

function rucOf(base: string): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = [...base].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  return base + String((11 - (sum % 11)) % 10);
}

function nitOf(base: string): string {
  const weights = [3, 7, 13, 17, 19, 23, 29, 37, 41];
  const sum = [...base].reverse().reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  const rest = sum % 11;
  return `${base}-${rest < 2 ? rest : 11 - rest}`;
}

const otherDigits = (digit: string) => [...'0123456789'].filter((d) => d !== digit);

describe('document rules (property)', () => {
  it('a CUIT passes the AR tax_id rule and fails after any single-digit change', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(20|23|24|27|30|33|34)\d{8}$/), (base) => {
        const cuit = cuitOf(base);
        if (cuit === undefined) return;
        expect(accepts('AR', 'tax_id', cuit)).toBe(true);
        // Weights below 11 make every substitution move the sum by a non-multiple of 11.
        for (let i = 0; i < 11; i++) {
          for (const d of otherDigits(cuit[i]!)) {
            expect(accepts('AR', 'tax_id', cuit.slice(0, i) + d + cuit.slice(i + 1))).toBe(false);
          }
        }
      }),
    );
  });

  // RUC and NIT map two remainders to one check digit, so some substitutions in the body keep a
  // valid number: what always holds is that the check digit decides.
  it('a RUC passes the PE tax_id rule and fails with any other check digit', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(10|20)\d{8}$/), (base) => {
        const ruc = rucOf(base);
        expect(accepts('PE', 'tax_id', ruc)).toBe(true);
        for (const d of otherDigits(ruc[10]!)) expect(accepts('PE', 'tax_id', base + d)).toBe(false);
      }),
    );
  });

  it('a NIT passes the CO tax_id rule and fails with any other verification digit', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[89]\d{8}$/), (base) => {
        const nit = nitOf(base);
        expect(accepts('CO', 'tax_id', nit)).toBe(true);
        for (const d of otherDigits(nit.slice(-1)))
          expect(accepts('CO', 'tax_id', `${base}-${d}`)).toBe(false);
      }),
    );
  });

  it('a passport of any country is letters and digits, 5 to 20 of them', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z]{2}$/),
        fc.stringMatching(/^[A-Z0-9]{5,20}$/),
        (country, number) => {
          expect(documentRule(country, 'passport')!.check(number.toLowerCase())).toEqual({
            ok: true,
            normalized: number,
          });
        },
      ),
    );
    expect(accepts('FR', 'passport', 'AB12')).toBe(false);
    expect(accepts('FR', 'passport', 'AB12-345')).toBe(false);
    expect(accepts('FR', 'passport', 'A'.repeat(21))).toBe(false);
  });
});
