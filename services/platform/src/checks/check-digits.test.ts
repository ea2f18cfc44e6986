import {
  digitsOnly,
  isValidCbuCvu,
  isValidCnpj,
  isValidColombianNit,
  isValidCpf,
  isValidCuit,
  isValidRuc,
} from './check-digits';

describe('check digits', () => {
  // Accept/reject pairs from the Pix validator tests quoted in research qr-schemes.md §2.
  it('CPF', () => {
    expect(isValidCpf('58540944014')).toBe(true);
    expect(isValidCpf('16802188830')).toBe(true);
    expect(isValidCpf('12345689290')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCpf('5854094401')).toBe(false);
  });

  it('CNPJ, numeric and alphanumeric', () => {
    expect(isValidCnpj('50486087000127')).toBe(true);
    expect(isValidCnpj('50486087000100')).toBe(false);
    // The alphanumeric CNPJ example of the Receita Federal: 12.ABC.345/01DE-35.
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12ABC34501DE36')).toBe(false);
  });

  // Real CUITs from the Argentine vectors (research §3).
  it.each(['20162475860', '33697235049', '30516186670', '27128490952', '30620177497', '23244825664'])(
    'CUIT %s is valid',
    (cuit) => expect(isValidCuit(cuit)).toBe(true),
  );

  it('rejects a CUIT with a wrong check digit or shape', () => {
    expect(isValidCuit('20123456781')).toBe(false);
    expect(isValidCuit('2016247586')).toBe(false);
  });

  it('CBU/CVU: both check digits', () => {
    expect(isValidCbuCvu('0000068000000002222956')).toBe(true);
    expect(isValidCbuCvu('0110343230034317537929')).toBe(true);
    expect(isValidCbuCvu('0000068100000002222956')).toBe(false); // first block
    expect(isValidCbuCvu('0000068000000002222957')).toBe(false); // second block
    expect(isValidCbuCvu('000006800000000222295')).toBe(false);
  });

  it('digitsOnly strips punctuation', () => {
    expect(digitsOnly('30-62017749-7')).toBe('30620177497');
  });

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
