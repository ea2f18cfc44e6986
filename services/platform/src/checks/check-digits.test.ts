import { isValidCnpj, isValidCpf, isValidCuit } from './check-digits';

describe('check digits', () => {
  // Accept/reject pairs the public Pix validators agree on (docs/qr-schemes.md "Pix (BR)").
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

  // Real CUITs from the Argentine vectors (docs/qr-schemes.md "AR interoperable and CBU/CVU").
  it.each(['20162475860', '33697235049', '30516186670', '27128490952', '30620177497', '23244825664'])(
    'CUIT %s is valid',
    (cuit) => expect(isValidCuit(cuit)).toBe(true),
  );

  it('rejects a CUIT with a wrong check digit or shape', () => {
    expect(isValidCuit('20123456781')).toBe(false);
    expect(isValidCuit('2016247586')).toBe(false);
  });
});
