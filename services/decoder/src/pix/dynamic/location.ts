import { dynamicPixError } from './errors';

// A dynamic Pix location (BR Code 26/25) is a URL without its scheme, at most 77 characters; the
// payer fetches it over https (README "Dynamic Pix"). Hosts in PIX_LOCATION_HTTP_HOSTS are
// fetched over plain http instead: the partner simulator in the sandbox and in tests.

export const MAX_LOCATION_LENGTH = 77;

/** `host` or `host:port`, lower case, as `URL.host` writes it. */
export type HttpHostAllowList = ReadonlySet<string>;

export function httpHostAllowList(hosts: readonly string[]): HttpHostAllowList {
  return new Set(hosts.map((host) => host.trim().toLowerCase()).filter(Boolean));
}

/** The URL to GET for `location`; throws QrDecodeError when it is not a valid location. */
export function locationUrl(location: string, httpHosts: HttpHostAllowList): URL {
  const invalid = (why: string) =>
    dynamicPixError('location_invalid', `The dynamic Pix location in 26/25 is invalid: ${why}.`);
  if (location.length === 0) throw invalid('it is empty');
  if (location.length > MAX_LOCATION_LENGTH)
    throw invalid(`it is longer than ${MAX_LOCATION_LENGTH} characters`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) throw invalid('it must not carry a scheme such as https://');
  // Printable ASCII only (BR Code text is ASCII); no backslash, which URL parsing reads as "/".
  if (/[^!-~]|\\/.test(location)) throw invalid('it contains spaces, control or non-ASCII characters');
  const url = URL.parse(`https://${location}`);
  if (!url || url.hostname === '' || location.startsWith('/')) throw invalid('it does not name a host');
  if (url.username !== '' || url.password !== '') throw invalid('it must not carry credentials');
  if (httpHosts.has(url.host)) url.protocol = 'http:';
  return url;
}

/**
 * Whether `jku` may publish the key for a payload fetched from `location`: same host and port,
 * over https (or http for an allow-listed host). The location's host is the receiving PSP the QR
 * names, authenticated by TLS; a JWKS anywhere else could be published by whoever wrote the
 * payload, and a signature checked against it would prove nothing about who issued the charge.
 */
export function jkuAllowed(jku: URL, location: URL, httpHosts: HttpHostAllowList): boolean {
  if (jku.host !== location.host || jku.username !== '' || jku.password !== '') return false;
  return jku.protocol === 'https:' || (jku.protocol === 'http:' && httpHosts.has(jku.host));
}
