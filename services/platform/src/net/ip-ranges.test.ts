import { blockedAddressClass, parseIPv6 } from './ip-ranges';

describe('blockedAddressClass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local or metadata'],
    ['169.254.0.1', 'link-local or metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'private (unique local)'],
    ['fd00:ec2::254', 'private (unique local)'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['::ffff:a9fe:a9fe', 'link-local or metadata (IPv4-mapped)'],
    ['64:ff9b::10.0.0.1', 'private (NAT64)'],
    ['2002:c0a8:0101::1', 'private (6to4)'],
    ['::7f00:1', 'IPv4-compatible'],
  ])('refuses %s as %s', (address, label) => {
    expect(blockedAddressClass(address)).toBe(label);
  });

  it.each([
    '8.8.8.8',
    '172.15.255.255',
    '172.32.0.0',
    '192.169.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
    'example.com',
    'localhost',
  ])('does not classify %s', (address) => {
    expect(blockedAddressClass(address)).toBeUndefined();
  });
});

describe('parseIPv6', () => {
  it.each([
    ['::1', [...new Array(15).fill(0), 1]],
    ['1::', [0, 1, ...new Array(14).fill(0)]],
    ['::ffff:1.2.3.4', [...new Array(10).fill(0), 0xff, 0xff, 1, 2, 3, 4]],
    ['1:2:3:4:5:6:7:8', [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]],
    ['fe80::1%eth0', [0xfe, 0x80, ...new Array(13).fill(0), 1]],
  ])('parses %s', (address, bytes) => {
    expect(parseIPv6(address)).toEqual(bytes);
  });
});

// The ranges added for the egress guard: IPv4 reached through IPv6 translation.

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
