import { classifyPixKey, isValidBrebKey, isYapeToken } from './keys';

describe('Pix keys', () => {
  it.each([
    ['58540944014', 'cpf', true],
    ['11111111111', 'cpf', false],
    ['50486087000127', 'cnpj', true],
    ['+5561998765432', 'phone', true],
    ['+554984023134', 'phone', false], // mobile missing its 9th digit
    ['nubank@thalesog.com', 'email', true],
    ['123e4567-e12b-12d1-a456-426655440000', 'evp', true],
    ['PADRAO.URL.PIX', 'unknown', false],
  ])('%s is %s (valid: %s)', (key, kind, valid) => {
    expect(classifyPixKey(key)).toEqual({ kind, valid });
  });
});

describe('Bre-B keys', () => {
  it.each([
    ['document', '1143995473', true],
    ['document', '11A3', false],
    ['mobile', '3138744066', true],
    ['mobile', '+573001234567', true],
    ['mobile', '6013138744', false],
    ['email', 'pagos@tienda.co', true],
    ['alias', '@redeban1015', true],
    ['alias', 'redeban1015', false],
    ['merchant_code', '0029353497', true],
    ['merchant_code', '29353497', false],
  ] as const)('%s %s valid: %s', (kind, key, valid) => {
    expect(isValidBrebKey(kind, key)).toBe(valid);
  });
});

describe('Yape tokens', () => {
  it('accepts 32 hex or 44 base64 characters', () => {
    expect(isYapeToken('03f92874015c5c6e81301afca0f637ae')).toBe(true);
    expect(isYapeToken('tCbPTJlWuwEOr5wNf9IVBggu45tPaDbjLT50DtkjUSM=')).toBe(true);
    expect(isYapeToken('1234')).toBe(false);
  });
});
