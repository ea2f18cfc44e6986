import { createRateService } from './service';

describe('createRateService', () => {
  it('lists the table currencies by code with their minor units', () => {
    const service = createRateService({
      rates: [
        { code: 'USD', minorUnits: 2, perUsd: '1' },
        { code: 'CLP', minorUnits: 0, perUsd: '940' },
        { code: 'KWD', minorUnits: 3, perUsd: '0.307' },
      ],
    });
    expect(service.listCurrencies().map(({ code, minorUnits }) => ({ code, minorUnits }))).toEqual([
      { code: 'CLP', minorUnits: 0 },
      { code: 'KWD', minorUnits: 3 },
      { code: 'USD', minorUnits: 2 },
    ]);
  });
});
