import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { createSealedBox, generateSealingKey, SealedBoxError } from './sealed-box';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const secret = Buffer.from('whsec_example-signing-secret', 'utf8');

describe('sealed box', () => {
  it('round-trips any bytes under any context', () => {
    const box = createSealedBox([keyA]);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.string(), (plaintext, context) => {
        expect(box.open(box.seal(plaintext, context), context).equals(Buffer.from(plaintext))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('never stores the plaintext and uses a fresh nonce every time', () => {
    const box = createSealedBox([keyA]);
    const first = box.seal(secret, 'ten_1');
    const second = box.seal(secret, 'ten_1');
    expect(first.includes(secret)).toBe(false);
    expect(first.equals(second)).toBe(false);
    expect(first.subarray(5, 17).equals(second.subarray(5, 17))).toBe(false);
    expect(first[0]).toBe(1);
    expect(first.length).toBe(1 + 4 + 12 + secret.length + 16);
  });

  it('detects tampering with any byte', () => {
    const box = createSealedBox([keyA]);
    const sealed = box.seal(secret, 'ten_1');
    for (let index = 0; index < sealed.length; index++) {
      const tampered = Buffer.from(sealed);
      tampered[index] = tampered[index]! ^ 0x01;
      expect(() => box.open(tampered, 'ten_1')).toThrow(SealedBoxError);
    }
  });

  it('refuses a truncated value', () => {
    const box = createSealedBox([keyA]);
    const sealed = box.seal(secret, 'ten_1');
    expect(() => box.open(sealed.subarray(0, 20), 'ten_1')).toThrow('truncated');
    expect(() => box.open(sealed.subarray(0, sealed.length - 1), 'ten_1')).toThrow(SealedBoxError);
  });

  it('refuses a value moved to another context (row)', () => {
    const box = createSealedBox([keyA]);
    const sealed = box.seal(secret, 'signing-secret:ten_1');
    expect(() => box.open(sealed, 'signing-secret:ten_2')).toThrow('failed authentication');
  });

  it('refuses a value sealed by a key that is not configured', () => {
    const sealed = createSealedBox([keyA]).seal(secret, 'ten_1');
    expect(() => createSealedBox([keyB]).open(sealed, 'ten_1')).toThrow('not configured');
  });

  it('refuses a wrong key even when its id collides', () => {
    const sealed = createSealedBox([keyA]).seal(secret, 'ten_1');
    const forged = Buffer.from(sealed);
    // Give the value keyB's id, so keyB is tried and authentication must be what fails.
    const keyBId = createSealedBox([keyB]).seal(Buffer.alloc(0), '').subarray(1, 5);
    keyBId.copy(forged, 1);
    expect(() => createSealedBox([keyB]).open(forged, 'ten_1')).toThrow('failed authentication');
  });

  it('opens values sealed by an older key after rotation and flags them for re-sealing', () => {
    const sealedByOld = createSealedBox([keyA]).seal(secret, 'ten_1');
    const rotated = createSealedBox([keyB, keyA]);
    expect(rotated.open(sealedByOld, 'ten_1').equals(secret)).toBe(true);
    expect(rotated.needsReseal(sealedByOld)).toBe(true);
    expect(rotated.needsReseal(rotated.seal(secret, 'ten_1'))).toBe(false);
  });

  it('refuses an unknown format version', () => {
    const box = createSealedBox([keyA]);
    const sealed = box.seal(secret, 'ten_1');
    sealed[0] = 2;
    expect(() => box.open(sealed, 'ten_1')).toThrow('unknown sealed format 2');
  });

  it('accepts only 32-byte keys', () => {
    expect(() => createSealedBox([])).toThrow('at least one key');
    expect(() => createSealedBox([randomBytes(16)])).toThrow('32 bytes, got 16');
    expect(Buffer.from(generateSealingKey(), 'base64')).toHaveLength(32);
  });
});
