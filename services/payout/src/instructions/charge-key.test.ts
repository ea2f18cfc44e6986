import { create, toJson } from '@bufbuild/protobuf';
import { DecodedQrSchema, PointOfInitiation } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import fc from 'fast-check';
import { chargeKeyOf, normalizePixLocation } from './charge-key';

const LOCATION = 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25';
const TXID = 'b1f2c3d4e5f60718293a4b5c6d7e8f90';

function pix(references: Record<string, string>, schemeId = 'BR.PIX') {
  return create(DecodedQrSchema, {
    schemeId,
    country: 'BR',
    currency: 'BRL',
    rail: 'pix',
    pointOfInitiation: PointOfInitiation.DYNAMIC,
    references,
  });
}

describe('chargeKeyOf', () => {
  it('keys a dynamic Pix charge by its location and txid', () => {
    expect(chargeKeyOf(pix({ pix_location: LOCATION, txid: TXID, pix_revision: '0' }))).toBe(
      `pix:${LOCATION}#${TXID}`,
    );
  });

  it('reads the same key from the protobuf JSON an instruction stores', () => {
    const decoded = pix({ pix_location: LOCATION, txid: TXID });
    expect(chargeKeyOf(toJson(DecodedQrSchema, decoded) as object)).toBe(chargeKeyOf(decoded));
  });

  it('keys by the location alone without a txid, or with the BR Code placeholder "***"', () => {
    expect(chargeKeyOf(pix({ pix_location: LOCATION }))).toBe(`pix:${LOCATION}`);
    expect(chargeKeyOf(pix({ pix_location: LOCATION, txid: '***' }))).toBe(`pix:${LOCATION}`);
  });

  it('has no key for a reusable QR: static Pix (a key, a txid), another scheme, no references', () => {
    expect(chargeKeyOf(pix({ txid: 'PEDIDO42', pix_key_type: 'email' }))).toBeNull();
    expect(chargeKeyOf(pix({ pix_location: LOCATION, txid: TXID }, 'AR.TRANSFERENCIAS3'))).toBeNull();
    expect(chargeKeyOf(pix({}))).toBeNull();
    expect(chargeKeyOf({})).toBeNull();
    expect(chargeKeyOf({ schemeId: 'BR.PIX', references: 'not a map' })).toBeNull();
    expect(chargeKeyOf(pix({ pix_location: ' / ', txid: TXID }))).toBeNull();
  });

  it('one charge, one key however its location is written', () => {
    const written = [
      LOCATION,
      `https://${LOCATION}`,
      `${LOCATION}/`,
      `PIX.Example.COM/qr/v2/9d36b84fc70b478fb95c12729b90ca25`,
      `pix.example.com:443/qr/v2/9d36b84fc70b478fb95c12729b90ca25`,
      `  ${LOCATION}\n`,
    ];
    const keys = new Set(written.map((location) => chargeKeyOf(pix({ pix_location: location, txid: TXID }))));
    expect([...keys]).toEqual([`pix:${LOCATION}#${TXID}`]);
  });

  it('keeps what tells charges apart: the path case, another txid, another port', () => {
    const key = (location: string, txid = TXID) => chargeKeyOf(pix({ pix_location: location, txid }));
    expect(key(LOCATION.toUpperCase().replace('PIX.EXAMPLE.COM', 'pix.example.com'))).not.toBe(key(LOCATION));
    // A PSP may unlink a location and link it to a new charge: the txid keeps them apart.
    expect(key(LOCATION, 'c0ffee00c0ffee00c0ffee00c0ffee00')).not.toBe(key(LOCATION));
    expect(key('pix.example.com:8443/qr/v2/x')).not.toBe(key('pix.example.com/qr/v2/x'));
  });

  it('the ways of writing one location give one key, a path of another case another (property)', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(fc.domain(), fc.array(segment, { minLength: 1, maxLength: 4 }), (host, segments) => {
        const location = `${host}/${segments.join('/')}`;
        const key = chargeKeyOf(pix({ pix_location: location, txid: TXID }));
        for (const written of [
          `https://${location}`,
          `${location}/`,
          `${host.toUpperCase()}/${segments.join('/')}`,
        ]) {
          expect(chargeKeyOf(pix({ pix_location: written, txid: TXID }))).toBe(key);
        }
        expect(normalizePixLocation(location)).toBe(`${host.toLowerCase()}/${segments.join('/')}`);
      }),
    );
  });
});
