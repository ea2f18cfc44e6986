import type { JsonWebKey } from 'node:crypto';
import { isIP } from 'node:net';
import { BoundedGetError, boundedGet } from './bounded-get';
import { dynamicPixError, isRetryableHttpStatus } from './errors';
import { createJwksCache } from './jwks-cache';
import { type CompactJws, parseCompactJws, publicKeyFor, verifyJwsSignature } from './jws';
import { type HttpHostAllowList, httpHostAllowList, jkuAllowed, locationUrl } from './location';
import { assertPayable, readLocationPayload } from './payload';
import { isNonPublicAddress, publicOnlyLookup } from './public-address';
import type { DynamicPixFetcher, DynamicPixPayload } from './types';

// Dynamic Pix over HTTP (docs/qr-schemes.md "Dynamic Pix locations"): GET https://<location>
// answers a JWS signed by the receiving PSP; its header names the key (kid) and the JWKS publishing
// it (jku). We verify the signature against that JWKS, then accept only an ATIVA charge inside its
// calendar. A location that cannot be fetched or verified is a coded error saying why, never a
// guess: QrLocationUnavailable when the PSP did not answer (retry), QrDecodeError otherwise
// (errors.ts).

export type HttpDynamicPixFetcherOptions = {
  /** Deadline of one whole fetch: the location GET and, when not cached, the JWKS GET. */
  timeoutMs: number;
  /** Largest response body accepted, for the payload and for a JWKS. */
  maxBytes: number;
  /** `host[:port]` fetched over plain http instead of https (sandbox, tests). */
  httpHosts: readonly string[];
  jwksCacheTtlMs: number;
  now?: () => Date;
};

const JOSE = 'application/jose';
const JWK_SET = 'application/jwk-set+json, application/json';

export function createHttpDynamicPixFetcher(opts: HttpDynamicPixFetcherOptions): DynamicPixFetcher {
  const httpHosts: HttpHostAllowList = httpHostAllowList(opts.httpHosts);
  const now = opts.now ?? (() => new Date());

  function get(url: URL, accept: string, deadline: number) {
    const trusted = httpHosts.has(url.host);
    return boundedGet(url, {
      accept,
      maxBytes: opts.maxBytes,
      timeoutMs: Math.max(1, deadline - Date.now()),
      ...(trusted ? {} : { lookup: publicOnlyLookup }),
    });
  }

  const jwks = createJwksCache({
    ttlMs: opts.jwksCacheTtlMs,
    load: async (url, deadline) => {
      const response = await get(new URL(url), JWK_SET, deadline);
      if (response.status !== 200) throw new JwksHttpStatusError(response.status);
      return parseJwks(response.body);
    },
  });

  async function verifiedBy(jws: CompactJws, location: URL, deadline: number): Promise<void> {
    const { alg, kid, jku, x5u } = jws.header;
    if (jku === undefined) {
      throw dynamicPixError(
        'jws_unsupported',
        x5u === undefined
          ? 'The dynamic Pix payload does not say where its signing key is published (no "jku" header).'
          : 'The dynamic Pix payload names its key only by an x5u certificate URL; a "jku" JWKS URL is required.',
      );
    }
    const jkuUrl = URL.parse(jku);
    if (!jkuUrl || !jkuAllowed(jkuUrl, location, httpHosts)) {
      throw dynamicPixError(
        'jku_not_allowed',
        `The dynamic Pix payload's key must be published on its location's host (${location.host}) over https.`,
        { location_host: location.host },
      );
    }
    let published: readonly JsonWebKey[];
    try {
      published = await jwks.keysFor(jkuUrl.href, kid, deadline);
    } catch (err) {
      throw dynamicPixError(
        isJwksOutage(err) ? 'jwks_unavailable' : 'jwks_invalid',
        `The signing keys of the dynamic Pix payload could not be fetched from ${jkuUrl.host}: ${reasonOf(err)}.`,
        { location_host: location.host },
      );
    }
    const candidates = published.flatMap((jwk) => publicKeyFor(jwk, alg) ?? []);
    if (candidates.length === 0) {
      throw dynamicPixError(
        'key_not_found',
        `No ${alg} key${kid === undefined ? '' : ` with kid ${JSON.stringify(kid.slice(0, 80))}`} is published at ${jkuUrl.host}${jkuUrl.pathname}.`,
        { location_host: location.host },
      );
    }
    if (!candidates.some((key) => verifyJwsSignature(jws, key))) {
      throw dynamicPixError(
        'bad_signature',
        'The signature of the dynamic Pix payload does not verify with the key its PSP publishes.',
        { location_host: location.host },
      );
    }
  }

  return {
    async fetch(location: string): Promise<DynamicPixPayload> {
      const url = locationUrl(location, httpHosts);
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (!httpHosts.has(url.host) && isIP(literal) !== 0 && isNonPublicAddress(literal)) {
        throw dynamicPixError(
          'location_invalid',
          'The dynamic Pix location in 26/25 is invalid: it must name a public host.',
          { location_host: url.host },
        );
      }
      const deadline = Date.now() + opts.timeoutMs;
      const metadata = { location_host: url.host };
      let response: Awaited<ReturnType<typeof boundedGet>>;
      try {
        response = await get(url, JOSE, deadline);
      } catch (err) {
        throw locationFailure(err, url, metadata);
      }
      if (response.status === 404 || response.status === 410) {
        throw dynamicPixError(
          'location_not_found',
          `The dynamic Pix location was not found at ${url.host} (HTTP ${response.status}): the charge does not exist.`,
          { ...metadata, http_status: String(response.status) },
        );
      }
      if (response.status !== 200) {
        throw dynamicPixError(
          'location_http_status',
          `The dynamic Pix location at ${url.host} answered HTTP ${response.status} instead of the signed payload.`,
          { ...metadata, http_status: String(response.status) },
        );
      }
      const jws = parseCompactJws(response.body.toString('utf8'));
      await verifiedBy(jws, url, deadline);
      const payload = readLocationPayload(jws.payload);
      assertPayable(payload, now());
      return payload;
    },
  };
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : 'unknown error';
}

/** A JWKS GET answered with a status other than 200. */
class JwksHttpStatusError extends Error {
  constructor(readonly status: number) {
    super(`it answered HTTP ${status}`);
    this.name = 'JwksHttpStatusError';
  }
}

/** Whether a JWKS load failed because the PSP did not answer (as opposed to answering badly). */
function isJwksOutage(err: unknown): boolean {
  if (err instanceof JwksHttpStatusError) return isRetryableHttpStatus(err.status);
  return err instanceof BoundedGetError && (err.failure === 'unreachable' || err.failure === 'timeout');
}

/** The coded error for a failed location GET; anything else (a bug) is passed on unchanged. */
function locationFailure(err: unknown, url: URL, metadata: Record<string, string>): unknown {
  if (!(err instanceof BoundedGetError)) return err;
  switch (err.failure) {
    case 'timeout':
      return dynamicPixError(
        'location_timeout',
        `The dynamic Pix location at ${url.host} did not answer in time.`,
        metadata,
      );
    case 'too_large':
      return dynamicPixError(
        'response_too_large',
        `The dynamic Pix location at ${url.host} answered too much: ${err.message}.`,
        metadata,
      );
    // A name that does not exist and one that resolves only to our network's addresses get one
    // answer, so a printed QR cannot tell anyone which internal names exist (docs/qr-schemes.md
    // "Dynamic Pix locations").
    case 'non_public_address':
    case 'unknown_host':
      return dynamicPixError(
        'location_host_unknown',
        `The dynamic Pix location names a host that does not resolve to a public address (${url.host}).`,
        metadata,
      );
    case 'unreachable':
      return dynamicPixError(
        'location_unreachable',
        `The dynamic Pix location at ${url.host} could not be reached: ${err.message}.`,
        metadata,
      );
  }
}

function parseJwks(body: Buffer): readonly JsonWebKey[] {
  let document: unknown;
  try {
    document = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Error('it is not JSON');
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('it is not a JWK set');
  return keys.filter(
    (key): key is JsonWebKey => typeof key === 'object' && key !== null && !Array.isArray(key),
  );
}
