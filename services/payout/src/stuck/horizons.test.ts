import {
  DEFAULT_SETTLEMENT_HORIZON_MS,
  horizonOf,
  settlementHorizons,
  settlementHorizonVariable,
} from './horizons';

describe('settlementHorizons', () => {
  it('defaults every rail to five minutes', () => {
    const read = settlementHorizons().read({});
    expect(read).toEqual({
      ok: true,
      value: {
        pix: DEFAULT_SETTLEMENT_HORIZON_MS,
        'transferencias-3.0': DEFAULT_SETTLEMENT_HORIZON_MS,
        'bre-b': DEFAULT_SETTLEMENT_HORIZON_MS,
        'cce-inmediatas': DEFAULT_SETTLEMENT_HORIZON_MS,
        'bolivia-qr-interoperable': DEFAULT_SETTLEMENT_HORIZON_MS,
      },
    });
  });

  it('reads one variable per rail', () => {
    expect(settlementHorizonVariable('transferencias-3.0')).toBe('SETTLEMENT_HORIZON_TRANSFERENCIAS_3_0_MS');
    const read = settlementHorizons().read({
      SETTLEMENT_HORIZON_PIX_MS: '3000',
      SETTLEMENT_HORIZON_BRE_B_MS: ' 60000 ',
    });
    expect(read.ok && read.value.pix).toBe(3000);
    expect(read.ok && read.value['bre-b']).toBe(60000);
  });

  it('names every bad variable', () => {
    const read = settlementHorizons().read({
      SETTLEMENT_HORIZON_PIX_MS: '5m',
      SETTLEMENT_HORIZON_BRE_B_MS: '0',
    });
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.problem).toContain('SETTLEMENT_HORIZON_PIX_MS must be milliseconds');
      expect(read.problem).toContain('SETTLEMENT_HORIZON_BRE_B_MS must be milliseconds');
    }
  });

  it('a rail not served has no horizon: stuck at once', () => {
    const read = settlementHorizons().read({});
    expect(read.ok && horizonOf(read.value, 'carrier-pigeon')).toBe(0);
  });
});
