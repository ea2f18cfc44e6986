import { readErrorDetail } from '@qr-payout/platform/errors';
import { httpHostAllowList, jkuAllowed, locationUrl } from './location';

const none = httpHostAllowList([]);
const sim = httpHostAllowList([' 127.0.0.1:4010 ', 'SIM.local:8080']);

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return readErrorDetail(err)?.metadata.reason;
  }
  return undefined;
}

describe('locationUrl', () => {
  it('fetches a location over https', () => {
    expect(locationUrl('qrpix.psp.com.br/qr/v2/9d36b84f', none).href).toBe(
      'https://qrpix.psp.com.br/qr/v2/9d36b84f',
    );
  });

  it('fetches allow-listed hosts over http, matching host and port', () => {
    expect(locationUrl('127.0.0.1:4010/pix/v2/qr/abc', sim).href).toBe('http://127.0.0.1:4010/pix/v2/qr/abc');
    expect(locationUrl('sim.local:8080/pix/v2/qr/abc', sim).protocol).toBe('http:');
    expect(locationUrl('127.0.0.1:4011/pix/v2/qr/abc', sim).protocol).toBe('https:');
  });

  it.each([
    ['empty', ''],
    ['with a scheme', 'https://psp.example/qr/1'],
    ['longer than 77 characters', `psp.example/${'a'.repeat(70)}`],
    ['with a space', 'psp.example/qr 1'],
    ['with a backslash', 'psp.example\\qr'],
    ['with credentials', 'user:pw@psp.example/qr/1'],
    ['without a host', '/qr/1'],
  ])('refuses a location %s', (_name, location) => {
    expect(reasonOf(() => locationUrl(location, none))).toBe('location_invalid');
  });
});

describe('jkuAllowed', () => {
  const location = new URL('https://qrpix.psp.com.br/qr/v2/1');

  it('accepts a JWKS on the location host over https', () => {
    expect(jkuAllowed(new URL('https://qrpix.psp.com.br/jwks'), location, none)).toBe(true);
  });

  it('refuses a JWKS on another host, port or scheme', () => {
    expect(jkuAllowed(new URL('https://attacker.example/jwks'), location, none)).toBe(false);
    expect(jkuAllowed(new URL('https://keys.psp.com.br/jwks'), location, none)).toBe(false);
    expect(jkuAllowed(new URL('https://qrpix.psp.com.br:8443/jwks'), location, none)).toBe(false);
    expect(jkuAllowed(new URL('http://qrpix.psp.com.br/jwks'), location, none)).toBe(false);
  });

  it('accepts http only for an allow-listed host', () => {
    const simLocation = locationUrl('127.0.0.1:4010/pix/v2/qr/abc', sim);
    expect(jkuAllowed(new URL('http://127.0.0.1:4010/.well-known/jwks.json'), simLocation, sim)).toBe(true);
    expect(jkuAllowed(new URL('http://127.0.0.1:4010/.well-known/jwks.json'), simLocation, none)).toBe(false);
  });
});
