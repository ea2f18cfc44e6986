import fc from 'fast-check';
import {
  GIVEN_KEY_MAX_LENGTH,
  generateApiKey,
  givenKeyProblem,
  hashApiKey,
  hashApiKeyHex,
  isGeneratedKeyShape,
  keyPrefix,
  randomBase62,
} from './keys';

describe('generateApiKey', () => {
  it('makes qrp_ + 8 base62 + _ + 32 base62, and its prefix is the first 12 characters', () => {
    const { key, prefix } = generateApiKey();
    expect(key).toMatch(/^qrp_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(isGeneratedKeyShape(key)).toBe(true);
    expect(prefix).toBe(key.slice(0, 12));
    expect(keyPrefix(key)).toBe(prefix);
  });

  it('never repeats a key or a prefix across many draws', () => {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const { key, prefix } = generateApiKey();
      keys.add(key);
      prefixes.add(prefix);
    }
    expect(keys.size).toBe(2000);
    expect(prefixes.size).toBe(2000);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(randomBase62(20_000));
    expect(seen.size).toBe(62);
  });
});

describe('keyPrefix', () => {
  it('is the first 12 characters of a given key', () => {
    expect(keyPrefix('sandbox-key-0123456789')).toBe('sandbox-key-');
  });
});

describe('givenKeyProblem', () => {
  it('accepts 16 to 256 printable characters', () => {
    expect(givenKeyProblem('a'.repeat(16))).toBeUndefined();
    expect(givenKeyProblem('x'.repeat(GIVEN_KEY_MAX_LENGTH))).toBeUndefined();
  });

  it('refuses short, long, spaced or non-ASCII keys', () => {
    expect(givenKeyProblem('a'.repeat(15))).toMatch(/16 to 256/);
    expect(givenKeyProblem('a'.repeat(257))).toMatch(/16 to 256/);
    expect(givenKeyProblem('has a space in it!')).toMatch(/printable/);
    expect(givenKeyProblem('clé-non-ascii-0123')).toMatch(/printable/);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the whole key (known vector)', () => {
    expect(hashApiKey('abc').toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('hashApiKeyHex is the same digest in hex (the auth cache key and the stored hash agree)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (key) => {
        expect(hashApiKeyHex(key)).toBe(hashApiKey(key).toString('hex'));
      }),
    );
  });

  it('gives distinct 32-byte digests for distinct keys', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        fc.pre(a !== b);
        const ha = hashApiKey(a);
        expect(ha).toHaveLength(32);
        expect(ha.equals(hashApiKey(b))).toBe(false);
      }),
    );
  });
});
