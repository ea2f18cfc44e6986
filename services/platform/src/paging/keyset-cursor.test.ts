import fc from 'fast-check';
import { decodeKeysetCursor, encodeKeysetCursor, pageSizeOf } from './keyset-cursor';

const position = { createdAt: '2026-11-24T10:00:00.123456Z', id: 'whd_01M86WVDK2AFAAG1ZMCWJ88YB5' };

describe('keyset cursor', () => {
  it('round-trips a position for its id prefix only', () => {
    const cursor = encodeKeysetCursor(position);
    expect(decodeKeysetCursor(cursor, 'whd')).toEqual(position);
    expect(decodeKeysetCursor(cursor, 'txn')).toBeUndefined();
  });

  it('refuses anything that is not a cursor of ours, without throwing', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const decoded = decodeKeysetCursor(raw, 'whd');
        return decoded === undefined || encodeKeysetCursor(decoded).length > 0;
      }),
    );
    const millis = Buffer.from(JSON.stringify(['2026-11-24T10:00:00.123Z', position.id])).toString(
      'base64url',
    );
    expect(decodeKeysetCursor(millis, 'whd')).toBeUndefined();
  });

  it('page size: 0 is the default, 1..max pass, the rest do not', () => {
    expect(pageSizeOf(0, { default: 20, max: 100 })).toBe(20);
    expect(pageSizeOf(1, { default: 20, max: 100 })).toBe(1);
    expect(pageSizeOf(100, { default: 20, max: 100 })).toBe(100);
    expect(pageSizeOf(101, { default: 20, max: 100 })).toBeUndefined();
    expect(pageSizeOf(-1, { default: 20, max: 100 })).toBeUndefined();
  });
});
