import { createChargeStore } from './charges';
import { locationOf } from './location';
import { concludePaidCharge, ownChargeOf } from './paid-charges';

const PUBLIC_URL = 'http://sim.local:4010';

function setup() {
  const charges = createChargeStore({ now: () => new Date('2026-11-23T12:00:00.000Z') });
  const charge = charges.create({
    amount: '25.90',
    key: '123e4567-e89b-42d3-a456-426614174000',
    creditorName: 'LOJA',
    creditorCity: 'SAO PAULO',
    expiresInSeconds: 3600,
  });
  const references = { pix_location: locationOf(PUBLIC_URL, charge.locationId), txid: charge.txid };
  return { charges, charge, references };
}

describe('concludePaidCharge', () => {
  it('concludes the charge a settled Pix payout paid: CONCLUIDA, revisao + 1', () => {
    const { charges, charge, references } = setup();
    const concluded = concludePaidCharge(charges, PUBLIC_URL, { rail: 'pix', references });
    expect(concluded).toMatchObject({ txid: charge.txid, status: 'CONCLUIDA', revision: 1 });
    expect(charges.byTxid(charge.txid)?.status).toBe('CONCLUIDA');
    // A second settled payout of the same charge changes nothing more.
    expect(concludePaidCharge(charges, PUBLIC_URL, { rail: 'pix', references })).toMatchObject({
      status: 'CONCLUIDA',
      revision: 1,
    });
  });

  it('finds the charge however the location is written (scheme, host case, trailing slash)', () => {
    const { charges, charge, references } = setup();
    const written = `HTTP://${references.pix_location.replace('sim.local', 'SIM.Local')}/`;
    expect(ownChargeOf(charges, PUBLIC_URL, { ...references, pix_location: written })?.txid).toBe(
      charge.txid,
    );
  });

  it("leaves charges alone for a payout that names none of this simulator's charges", () => {
    const { charges, charge, references } = setup();
    const untouched = (refs: Record<string, string>, rail = 'pix') => {
      expect(concludePaidCharge(charges, PUBLIC_URL, { rail, references: refs })).toBeUndefined();
      expect(charges.byTxid(charge.txid)?.status).toBe('ATIVA');
    };
    untouched({});
    untouched({ txid: charge.txid });
    untouched({ pix_location: references.pix_location });
    // Another txid at the location: a location relinked to another charge.
    untouched({ ...references, txid: 'c0ffee00c0ffee00c0ffee00c0ffee00' });
    // The same location id at another PSP.
    untouched({ ...references, pix_location: locationOf('https://psp.example', charge.locationId) });
    untouched(references, 'bre-b');
  });

  it('keeps a removed charge removed', () => {
    const { charges, charge, references } = setup();
    charges.changeStatus(charge.txid, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(concludePaidCharge(charges, PUBLIC_URL, { rail: 'pix', references })?.status).toBe(
      'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    );
  });
});
