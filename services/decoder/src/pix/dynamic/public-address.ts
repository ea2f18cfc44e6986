import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { blockedAddressClass } from '@qr-payout/platform/net';

// A dynamic Pix location comes from a QR anyone can print, so the decoder must not become a way
// to reach addresses inside our network (SSRF): https locations may only connect to public
// addresses. The check runs on the address actually connected to (a `lookup` for node:http), so
// a name that resolves differently on a second lookup cannot slip through. Allow-listed http
// hosts (the sandbox's partner simulator) are trusted by configuration and skip it.
// Which addresses are public is platform's one classifier, shared with webhook targets.

/** Whether `address` (an IP literal) is loopback, private, link-local, metadata or reserved. */
export function isNonPublicAddress(address: string): boolean {
  return blockedAddressClass(address) !== undefined;
}
export class NonPublicAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a non-public address`);
    this.name = 'NonPublicAddressError';
  }
}

/** A node:http `lookup` that resolves as usual and refuses non-public addresses. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '');
    if (addresses.length === 0 || addresses.some((entry) => isNonPublicAddress(entry.address))) {
      return callback(new NonPublicAddressError(hostname), '');
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    return callback(null, first.address, first.family);
  });
};
