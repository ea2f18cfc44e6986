import { blockedAddressClass } from './ip-ranges';

// The bulk of the address classes is tested where they were first written
// (services/webhook/src/endpoints/ip-ranges.test.ts); these are the ranges added for the egress guard.

describe('blockedAddressClass, IPv4 reached through IPv6 translation', () => {
  it.each([
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64'],
    ['::ffff:0:7f00:1', 'loopback (IPv4-translated)'],
    ['::ffff:0:127.0.0.1', 'loopback (IPv4-translated)'],
    ['::ffff:0:a9fe:a9fe', 'link-local or metadata (IPv4-translated)'],
    ['::ffff:0:a00:1', 'private (IPv4-translated)'],
  ])('refuses %s as %s', (address, label) => {
    expect(blockedAddressClass(address)).toBe(label);
  });

  it.each(['64:ff9b:2::a00:1', '64:ff9b::8.8.8.8', '::ffff:0:8.8.8.8'])('does not classify %s', (address) => {
    expect(blockedAddressClass(address)).toBeUndefined();
  });

  it.each([
    ['fd00:ec2::254', 'private (unique local)'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local or metadata'],
  ])('covers the cloud metadata address %s', (address, label) => {
    expect(blockedAddressClass(address)).toBe(label);
  });
});

describe('blockedAddressClass, tunnelling and non-routable IPv6 ranges', () => {
  it.each([
    ['192.88.99.1', '6to4 relay'],
    ['192.88.99.255', '6to4 relay'],
    // Teredo: server 65.54.227.120, client 1.2.3.4 obfuscated (XOR) in the last 32 bits.
    ['2001:0:4136:e378:8000:63bf:fefd:fcfb', 'Teredo'],
    ['2001::1', 'Teredo'],
    ['2001:10::1', 'ORCHID'],
    ['2001:20::1', 'ORCHIDv2'],
    ['3fff::1', 'documentation'],
  ])('refuses %s as %s', (address, label) => {
    expect(blockedAddressClass(address)).toBe(label);
  });

  it.each(['192.88.98.1', '192.88.100.1', '2001:4860:4860::8888', '2001:1::1', '2001:30::1'])(
    'leaves the public %s alone',
    (address) => {
      expect(blockedAddressClass(address)).toBeUndefined();
    },
  );
});
