import { readErrorDetail } from '@qr-payout/platform/errors';
import { amountToMinor, assertPayable, DEFAULT_EXPIRY_SECONDS, readLocationPayload } from './payload';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

const PAYLOAD = {
  txid: 'C170077E4A7B4E248BBFAE2D769F1811',
  revisao: 1,
  calendario: { criacao: '2026-11-23T12:00:00Z', apresentacao: '2026-11-23T12:00:05Z', expiracao: 3600 },
  status: 'ATIVA',
  valor: { original: '45.00' },
  chave: '5cf9629c-114d-4db2-8aa4-73364f2521bd',
  recebedor: { nome: 'Padaria São João', cnpj: '50486087000127' },
  solicitacaoPagador: 'pedido 42',
};

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return readErrorDetail(err)?.metadata.reason;
  }
  return undefined;
}

describe('readLocationPayload', () => {
  it('takes txid, key, name, amount, status, expiry and revision from the payload', () => {
    expect(readLocationPayload(bytes(PAYLOAD))).toEqual({
      txid: 'C170077E4A7B4E248BBFAE2D769F1811',
      key: '5cf9629c-114d-4db2-8aa4-73364f2521bd',
      creditorName: 'Padaria São João',
      amountMinor: 4500n,
      currency: 'BRL',
      status: 'ATIVA',
      expiresAt: new Date('2026-11-23T13:00:00Z'),
      revision: 1,
    });
  });

  it('leaves out what the PSP did not send and applies the BCB default expiry', () => {
    const { recebedor: _r, valor: _v, revisao: _rev, ...rest } = PAYLOAD;
    const payload = readLocationPayload(bytes({ ...rest, calendario: { criacao: '2026-11-23T12:00:00Z' } }));
    expect(payload).not.toHaveProperty('creditorName');
    expect(payload).not.toHaveProperty('amountMinor');
    expect(payload).not.toHaveProperty('revision');
    expect(payload.expiresAt).toEqual(
      new Date(Date.parse('2026-11-23T12:00:00Z') + DEFAULT_EXPIRY_SECONDS * 1000),
    );
  });

  it.each([
    ['not JSON', Buffer.from('{')],
    ['an array', bytes([PAYLOAD])],
    ['no txid', bytes({ ...PAYLOAD, txid: undefined })],
    ['no chave', bytes({ ...PAYLOAD, chave: '' })],
    ['no status', bytes({ ...PAYLOAD, status: 3 })],
    ['no calendario', bytes({ ...PAYLOAD, calendario: undefined })],
    ['a bad criacao', bytes({ ...PAYLOAD, calendario: { criacao: 'yesterday' } })],
    ['a negative expiracao', bytes({ ...PAYLOAD, calendario: { ...PAYLOAD.calendario, expiracao: -1 } })],
    ['an amount with a comma', bytes({ ...PAYLOAD, valor: { original: '45,00' } })],
    ['an amount as a number', bytes({ ...PAYLOAD, valor: { original: 45 } })],
    ['a fractional revisao', bytes({ ...PAYLOAD, revisao: 1.5 })],
  ])('refuses a payload with %s', (_name, body) => {
    expect(reasonOf(() => readLocationPayload(body))).toBe('payload_malformed');
  });
});

describe('amountToMinor', () => {
  it('converts BCB decimal amounts to centavos without floats', () => {
    expect(amountToMinor('0.01')).toBe(1n);
    expect(amountToMinor('123.45')).toBe(12345n);
    expect(amountToMinor('999999999999.99')).toBe(99999999999999n);
  });
});

describe('assertPayable', () => {
  const payload = readLocationPayload(bytes(PAYLOAD));

  it('passes an ATIVA charge inside its calendar', () => {
    expect(() => assertPayable(payload, new Date('2026-11-23T12:59:59Z'))).not.toThrow();
  });

  it('refuses a charge that is not ATIVA, naming its status', () => {
    const removed = { ...payload, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' };
    expect(reasonOf(() => assertPayable(removed, new Date('2026-11-23T12:00:10Z')))).toBe('not_active');
    expect(() => assertPayable(removed, new Date('2026-11-23T12:00:10Z'))).toThrow(
      /status is REMOVIDA_PELO_USUARIO_RECEBEDOR, not ATIVA/,
    );
  });

  it('refuses an expired charge', () => {
    expect(reasonOf(() => assertPayable(payload, new Date('2026-11-23T13:00:00Z')))).toBe('expired');
  });
});
