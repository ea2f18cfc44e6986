import fc from 'fast-check';
import {
  chileanRutCheck,
  curpCheck,
  isValidChileanRut,
  isValidColombianNit,
  isValidCurp,
  isValidRuc,
  isValidSpanishDni,
  isValidSpanishNie,
  isValidUruguayanCi,
  spanishControlLetter,
  uruguayanCiCheck,
} from './check-digits';

/** Every string that differs from `value` in exactly one position, by a character of `alphabet`. */
function singleChanges(value: string, alphabet: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) {
    for (const c of alphabet) if (c !== value[i]) out.push(value.slice(0, i) + c + value.slice(i + 1));
  }
  return out;
}

const DIGITS = '0123456789';

describe('known numbers (values cross-checked with python-stdnum)', () => {
  it.each([
    ['123456785', true],
    ['10000013K', true],
    ['76543216', true],
    ['123456784', false],
    ['1000001K', false],
  ])('Chilean RUT %s is valid: %s', (value, valid) => {
    expect(isValidChileanRut(value)).toBe(valid);
  });

  it.each([
    ['12345672', true],
    ['12345670', false],
    ['9876543', false],
  ])('Uruguayan CI %s is valid: %s', (value, valid) => {
    expect(isValidUruguayanCi(value)).toBe(valid);
  });

  it.each([
    ['BOXW310820HNERXN09', true],
    ['GODE561231HDFNRR00', true],
    ['GODE561231HDFNRR01', false],
    ['GODE561331HDFNRR00', false], // month 13
  ])('CURP %s is valid: %s', (value, valid) => {
    expect(isValidCurp(value)).toBe(valid);
  });

  it.each([
    ['12345678Z', 'dni', true],
    ['12345678A', 'dni', false],
    ['X1234567L', 'nie', true],
    ['Y1234567X', 'nie', true],
    ['X1234567Z', 'nie', false],
  ])('Spanish %s (%s) is valid: %s', (value, kind, valid) => {
    expect(kind === 'dni' ? isValidSpanishDni(value) : isValidSpanishNie(value)).toBe(valid);
  });
});

describe('check digits (property)', () => {
  it('a Chilean RUT passes with its check character and fails after any single change', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{6,7}$/), (body) => {
        const rut = body + chileanRutCheck(body);
        expect(isValidChileanRut(rut)).toBe(true);
        // Weights 2..7 are prime to 11 and the check maps the 11 remainders one to one.
        for (const changed of singleChanges(rut, `${DIGITS}K`))
          expect(isValidChileanRut(changed)).toBe(false);
      }),
    );
  });

  it('a Spanish DNI or NIE passes with its letter and fails after any single change', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), fc.stringMatching(/^[XYZ]\d{7}$/), (dniDigits, nieBody) => {
        const dni = dniDigits + spanishControlLetter(dniDigits);
        const nie = nieBody + spanishControlLetter(String('XYZ'.indexOf(nieBody[0]!)) + nieBody.slice(1));
        expect(isValidSpanishDni(dni)).toBe(true);
        expect(isValidSpanishNie(nie)).toBe(true);
        // Any one-digit change moves the number by d·10^k, never a multiple of 23.
        for (const changed of singleChanges(dni, DIGITS)) expect(isValidSpanishDni(changed)).toBe(false);
        for (const changed of singleChanges(nie, DIGITS)) expect(isValidSpanishNie(changed)).toBe(false);
        for (const letter of 'ABCDEFGHJKLMNPQRSTVWXYZ') {
          if (letter !== dni[8]) expect(isValidSpanishDni(dni.slice(0, 8) + letter)).toBe(false);
        }
      }),
    );
  });

  // Mod-10 with even weights (Uruguay) and CURP's weights cannot see every substitution (a 5
  // added under weight 2 changes the sum by 10): the property is that the check digit decides.
  it('a Uruguayan CI passes with its check digit and fails with any other', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{5,6}$/), (body) => {
        const check = uruguayanCiCheck(body);
        expect(isValidUruguayanCi(body + check)).toBe(true);
        for (const other of DIGITS) if (other !== check) expect(isValidUruguayanCi(body + other)).toBe(false);
      }),
    );
  });

  it('a CURP passes with its check digit and fails with any other', () => {
    const first17 = fc
      .tuple(
        fc.stringMatching(/^[A-Z]{4}$/),
        fc.stringMatching(/^\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d)$/),
        fc.stringMatching(/^[HM][A-Z]{2}[A-Z]{3}[0-9A-Z]$/),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(first17, (head) => {
        const check = curpCheck(head);
        expect(isValidCurp(head + check)).toBe(true);
        for (const other of DIGITS) if (other !== check) expect(isValidCurp(head + other)).toBe(false);
      }),
    );
  });
});

describe('tax ids payout alone checks (RUC, NIT)', () => {
  // Published RUCs of Peruvian institutions (SUNAT, BCP, BBVA) and a personal RUC (prefix 10).
  it.each(['20131312955', '20100047218', '20100070970', '10467793549'])('RUC %s is valid', (ruc) =>
    expect(isValidRuc(ruc)).toBe(true),
  );

  it('rejects a RUC with a wrong check digit or shape', () => {
    expect(isValidRuc('20100047219')).toBe(false);
    expect(isValidRuc('2010004721')).toBe(false);
  });

  // Published NITs of Colombian institutions (DIAN, Bancolombia, Ecopetrol) with their DV.
  it.each([
    ['800197268', '4'],
    ['890903938', '8'],
    ['899999068', '1'],
  ])('NIT %s-%s is valid', (nit, dv) => expect(isValidColombianNit(nit, dv)).toBe(true));

  it('rejects a NIT with a wrong verification digit or shape', () => {
    expect(isValidColombianNit('800197268', '5')).toBe(false);
    expect(isValidColombianNit('', '0')).toBe(false);
    expect(isValidColombianNit('80019726A', '4')).toBe(false);
  });
});
