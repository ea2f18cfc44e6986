import { MAX_LOCATION_LENGTH } from './brcode';

// Where a charge's signed payload is served, and how the BR Code names it (26/25: no scheme).

export const LOCATION_PATH = '/pix/v2/qr';
export const JWKS_PATH = '/.well-known/jwks.json';

/** The public base URL without its trailing slash. */
function base(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

/** `host[:port][/prefix]/pix/v2/qr/<id>`: what goes in 26/25. */
export function locationOf(publicUrl: string, locationId: string): string {
  return `${base(publicUrl).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}${LOCATION_PATH}/${locationId}`;
}

export function jwksUrlOf(publicUrl: string): string {
  return `${base(publicUrl)}${JWKS_PATH}`;
}

/** Fails at start, not per charge, when the public URL leaves no room for a location in 26/25. */
export function assertLocationFits(publicUrl: string, locationIdLength: number): void {
  const longest = locationOf(publicUrl, 'x'.repeat(locationIdLength));
  if (longest.length > MAX_LOCATION_LENGTH) {
    throw new Error(
      `invalid configuration: PARTNER_SIM_PUBLIC_URL is too long for a Pix location (${longest.length} > ${MAX_LOCATION_LENGTH} characters)`,
    );
  }
}
