import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIPv4, type LookupFunction } from 'node:net';

// A dynamic Pix location comes from a QR anyone can print, so the decoder must not become a way
// to reach addresses inside our network (SSRF): https locations may only connect to public
// addresses. The check runs on the address actually connected to (a `lookup` for node:http), so
// a name that resolves differently on a second lookup cannot slip through. Allow-listed http
// hosts (the sandbox's partner simulator) are trusted by configuration and skip it.
// The webhook service keeps a finer classifier for its targets (services/webhook ip-ranges.ts).

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is loopback, private, link-local, metadata or reserved. */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1] as string, 'ipv4');
  return NON_PUBLIC.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
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
