import type { FastifyInstance } from 'fastify';
import type { ChargeStore } from '../pix/charges';
import { JWKS_PATH, jwksUrlOf, LOCATION_PATH } from '../pix/location';
import { locationPayload } from '../pix/location-payload';
import { signCompactJws } from '../signing/jws';
import type { SigningKey } from '../signing/keys';
import { sendProblem } from './problem';

// What a payer's PSP fetches: GET https://<26/25 location> answers the charge's payload as a
// compact JWS signed by this PSP, whose header names the key (kid) and where it is published
// (jku: this server's JWKS). Removed or paid charges are served too, with their status, so the
// payer can tell "no longer payable" from "no such charge" (404).

export type PixLocationRouteDeps = {
  charges: ChargeStore;
  signingKey: SigningKey;
  publicUrl: () => string;
  now: () => Date;
};

// Payers cache the JWKS; a configured key is stable, a generated one lives as long as the process.
const JWKS_MAX_AGE_SECONDS = 300;

export function registerPixLocationRoutes(app: FastifyInstance, deps: PixLocationRouteDeps): void {
  app.get<{ Params: { locationId: string } }>(`${LOCATION_PATH}/:locationId`, (request, reply) => {
    const charge = deps.charges.byLocationId(request.params.locationId);
    if (!charge) return sendProblem(reply, 404, 'LocationNaoEncontrado', 'no charge at this location');
    const jws = signCompactJws(
      locationPayload(charge, deps.now()),
      deps.signingKey,
      jwksUrlOf(deps.publicUrl()),
    );
    return reply.header('cache-control', 'no-store').type('application/jose').send(jws);
  });

  app.get(JWKS_PATH, (_request, reply) =>
    reply
      .header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
      .type('application/jwk-set+json')
      .send(JSON.stringify({ keys: [deps.signingKey.publicJwk] })),
  );
}
