import { isIPv4, isIPv6 } from 'node:net';

// Address classes a webhook must never be sent to unless private targets are allowed
// (docs/api/webhooks.md "Where we send"): loopback, private, link-local (which holds the cloud
// metadata address 169.254.169.254), carrier-grade NAT, unspecified, multicast, reserved and
// documentation ranges, and the tunnelling ranges (6to4 relays, Teredo). IPv6 forms that embed an
// IPv4 address (mapped, translated, NAT64, 6to4) are judged by the embedded address, so
// `[::ffff:127.0.0.1]` is as refused as `127.0.0.1`.

type Range = { prefix: number[]; bits: number; label: string };

function v4(cidr: string, label: string): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  return { prefix: address.split('.').map(Number), bits: Number(bits), label };
}

function v6(hextets: number[], bits: number, label: string): Range {
  return { prefix: hextets.flatMap((h) => [h >> 8, h & 0xff]), bits, label };
}

const IPV4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local or metadata'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  // RFC 7526: the deprecated 6to4 relay anycast; whatever answers there relays into other networks.
  v4('192.88.99.0/24', '6to4 relay'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_BLOCKED: Range[] = [
  v6([0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'),
  v6([0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'),
  v6([0x0100, 0, 0, 0], 64, 'discard'),
  // RFC 4380 Teredo: the client's IPv4 address sits obfuscated in the last 32 bits and the server's
  // in bits 32..63, so the address cannot be judged by an embedded one: the whole /32 is refused.
  v6([0x2001, 0], 32, 'Teredo'),
  v6([0x2001, 0x0010], 28, 'ORCHID'),
  v6([0x2001, 0x0020], 28, 'ORCHIDv2'),
  v6([0x2001, 0x0db8], 32, 'documentation'),
  v6([0x3fff], 20, 'documentation'),
  // RFC 8215: a site's own NAT64 translator, which reaches that site's private IPv4 network; where
  // the IPv4 address sits depends on the site's prefix length, so the whole /48 is refused.
  v6([0x64, 0xff9b, 0x1], 48, 'local-use NAT64'),
  v6([0xfc00], 7, 'private (unique local)'),
  v6([0xfe80], 10, 'link-local'),
  v6([0xfec0], 10, 'site-local'),
  v6([0xff00], 8, 'multicast'),
];

// IPv6 ranges that carry an IPv4 address: in the last 32 bits, or (6to4) in bits 16..47.
const IPV4_MAPPED = v6([0, 0, 0, 0, 0, 0xffff], 96, 'IPv4-mapped');
const IPV4_TRANSLATED = v6([0, 0, 0, 0, 0xffff, 0], 96, 'IPv4-translated'); // RFC 2765 SIIT
const IPV4_COMPATIBLE = v6([0, 0, 0, 0, 0, 0], 96, 'IPv4-compatible');
const NAT64 = v6([0x64, 0xff9b, 0, 0, 0, 0], 96, 'NAT64');
const SIX_TO_FOUR = v6([0x2002], 16, '6to4');

function matches(bytes: number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const remaining = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - remaining)) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((range.prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIPv4(address: string): number[] {
  return address.split('.').map(Number);
}

function hextetsOf(part: string | undefined): number[] {
  return part === undefined || part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16));
}

/** The 16 bytes of an IPv6 address in any valid textual form (including a dotted IPv4 tail). */
export function parseIPv6(address: string): number[] {
  const text = address
    .replace(/%.*$/, '')
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((h) => h.toString(16)).join(':'),
    );
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = hextetsOf(head);
  const right = hextetsOf(rest);
  const hextets =
    rest === undefined
      ? left
      : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return hextets.flatMap((h) => [h >> 8, h & 0xff]);
}

function classifyIPv4Bytes(bytes: number[]): string | undefined {
  return IPV4_BLOCKED.find((range) => matches(bytes, range))?.label;
}

/**
 * Why `address` (an IP literal without brackets) is not a public target, or undefined when it is
 * public. Returns undefined for anything that is not an IP literal.
 */
export function blockedAddressClass(address: string): string | undefined {
  if (isIPv4(address)) return classifyIPv4Bytes(parseIPv4(address));
  if (!isIPv6(address)) return undefined;
  const bytes = parseIPv6(address);
  for (const range of [IPV4_MAPPED, IPV4_TRANSLATED, NAT64]) {
    if (matches(bytes, range)) {
      const inner = classifyIPv4Bytes(bytes.slice(12));
      return inner && `${inner} (${range.label})`;
    }
  }
  if (matches(bytes, SIX_TO_FOUR)) {
    const inner = classifyIPv4Bytes(bytes.slice(2, 6));
    return inner && `${inner} (${SIX_TO_FOUR.label})`;
  }
  const own = IPV6_BLOCKED.find((range) => matches(bytes, range))?.label;
  if (own) return own;
  // Deprecated ::a.b.c.d; anything in ::/96 besides :: and ::1 is not a routable public target.
  if (matches(bytes, IPV4_COMPATIBLE)) return IPV4_COMPATIBLE.label;
  return undefined;
}
