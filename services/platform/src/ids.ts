import { randomBytes } from 'node:crypto';

// ULID: 48-bit millisecond timestamp + 80 random bits, Crockford base32, 26 chars.
// Ids made in the same millisecond by this process increase monotonically, so ids sort by
// creation order.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_BITS = 80n;
const RANDOM_MAX = (1n << RANDOM_BITS) - 1n;

let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = CROCKFORD[Number(rest & 31n)] + out;
    rest >>= 5n;
  }
  return out;
}

/** A new ULID. */
function ulid(now: number = Date.now()): string {
  let random: bigint;
  if (now <= lastTime && lastRandom < RANDOM_MAX) {
    random = lastRandom + 1n;
    now = lastTime;
  } else {
    random = BigInt(`0x${randomBytes(10).toString('hex')}`);
  }
  lastTime = now;
  lastRandom = random;
  return encode(BigInt(now), 10) + encode(random, 16);
}

const PREFIX = /^[a-z][a-z0-9]*$/;

/** `newId('txn')` → `txn_01JD...`: a prefix naming the kind of thing, then a ULID. */
export function newId(prefix: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`invalid id prefix: ${prefix}`);
  return `${prefix}_${ulid()}`;
}

/** A ULID as a regular expression source: 26 Crockford base32 characters. */
const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';
const ULID_ONLY = new RegExp(`^${ULID_PATTERN}$`);

/**
 * Whether `id` is a well-formed id with the given prefix: the one check of an id's format, for
 * the services and the gateway's routes and JSON Schemas alike.
 */
export function isId(id: string, prefix: string): boolean {
  return id.startsWith(`${prefix}_`) && ULID_ONLY.test(id.slice(prefix.length + 1));
}

/** The JSON Schema / regular expression pattern of an id with the given prefix. */
export function idPattern(prefix: string): string {
  return `^${prefix}_${ULID_PATTERN}$`;
}

/**
 * A new UUID version 7 (RFC 9562): a 48-bit millisecond timestamp, then random bits. Event ids are
 * v7 so the unique indexes that lead with them (the outbox's, webhook deliveries') take each new id
 * at their right edge instead of a random page: at millions of rows that is the difference between
 * a cached page and a page read per insert (bench/README.md "scale").
 */
export function newUuidV7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
