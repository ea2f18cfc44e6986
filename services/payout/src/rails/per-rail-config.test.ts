import { RAILS } from '@qr-payout/platform/partner-protocol';
import { partnerUrlPerRail, perRailConfig, railEnvName } from './per-rail-config';

const reader = perRailConfig({
  name: 'TEST_*',
  variableOf: (rail) => `TEST_${railEnvName(rail)}`,
  parse: (raw) => (raw === '' ? 1 : /^\d+$/.test(raw) ? Number(raw) : 'must be digits'),
});

describe('perRailConfig', () => {
  it('reads every rail, trimmed, with its default when unset', () => {
    const read = reader.read({ TEST_PIX: ' 7 ', TEST_TRANSFERENCIAS_3_0: '9' });
    expect(read).toEqual({
      ok: true,
      value: {
        pix: 7,
        'transferencias-3.0': 9,
        'bre-b': 1,
        'cce-inmediatas': 1,
        'bolivia-qr-interoperable': 1,
      },
    });
    expect(read.ok && Object.keys(read.value)).toEqual([...RAILS]);
    expect(read.ok && Object.isFrozen(read.value)).toBe(true);
  });

  it('names every bad variable with what it got, all at once', () => {
    const read = reader.read({ TEST_PIX: 'x', TEST_BRE_B: '1.5' });
    expect(read).toEqual({
      ok: false,
      problem: 'TEST_PIX must be digits (got "x"); TEST_BRE_B must be digits (got "1.5")',
    });
  });

  it('writes a rail as an env variable name in upper case with underscores', () => {
    expect(RAILS.map(railEnvName)).toEqual([
      'PIX',
      'TRANSFERENCIAS_3_0',
      'BRE_B',
      'CCE_INMEDIATAS',
      'BOLIVIA_QR_INTEROPERABLE',
    ]);
  });
});

describe('partnerUrlPerRail', () => {
  it('reads PARTNER_<RAIL>_URL for every rail, unset ones left out', () => {
    const read = partnerUrlPerRail().read({
      PARTNER_PIX_URL: 'http://pix.example',
      PARTNER_TRANSFERENCIAS_3_0_URL: 'http://ar.example',
    });
    expect(read).toEqual({
      ok: true,
      value: { pix: 'http://pix.example', 'transferencias-3.0': 'http://ar.example' },
    });
  });

  it('names every bad variable', () => {
    const read = partnerUrlPerRail().read({ PARTNER_BRE_B_URL: 'nope', PARTNER_CCE_INMEDIATAS_URL: '::' });
    expect(read).toEqual({
      ok: false,
      problem: 'PARTNER_BRE_B_URL must be a valid URL; PARTNER_CCE_INMEDIATAS_URL must be a valid URL',
    });
  });
});
