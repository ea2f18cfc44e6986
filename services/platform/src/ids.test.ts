import { isId, newId, newUuidV7 } from './ids';

describe('ids', () => {
  it('is prefix, underscore and a 26-char Crockford base32 ULID', () => {
    const id = newId('txn');
    expect(id).toMatch(/^txn_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId(id, 'txn')).toBe(true);
    expect(isId(id, 'qt')).toBe(false);
  });

  it('sorts by creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newId('evt'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('rejects a malformed prefix', () => {
    expect(() => newId('Bad_')).toThrow(/invalid id prefix/);
  });

  it('encodes the creation time in the first 10 characters', () => {
    // Later than any id made so far, so the monotonic guard keeps this exact time.
    const at = Date.now() + 3_600_000;
    jest.spyOn(Date, 'now').mockReturnValueOnce(at);
    const decoded = [...newId('txn').slice('txn_'.length, 'txn_'.length + 10)].reduce(
      (acc, ch) => acc * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(ch),
      0,
    );
    expect(decoded).toBe(at);
  });
});

describe('newUuidV7', () => {
  it('is a version 7, RFC 9562 variant UUID whose first 48 bits are the time in milliseconds', () => {
    const id = newUuidV7(Date.UTC(2026, 10, 24, 12));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 24, 12));
  });

  it('sorts by time across milliseconds and never repeats', () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => newUuidV7(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 10_000 }, () => newUuidV7())).size).toBe(10_000);
  });
});
