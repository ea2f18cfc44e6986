import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { blockedAddressClass, checkTargetUrl } from '@qr-payout/platform/net';

// The one egress guard for registered endpoints and execute's callback_url
// (docs/api/webhooks.md "Where we send"): a webhook must not reach loopback, private, link-local or
// metadata addresses. Two rules, both always run:
//   - the name rule (platform checkTargetUrl): https only, no credentials, not localhost or a
//     metadata host name, not a literal refused address;
//   - the address rule: the host is resolved once and every refused address is dropped.
// The sender connects only to the address returned here and never looks the name up again, so a
// name that answers a public address to the guard and 127.0.0.1 a moment later (DNS rebinding)
// cannot get through. WEBHOOK_ALLOW_PRIVATE_TARGETS lifts the scheme and address rules (sandbox,
// tests) but the host is still resolved once and pinned.

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export type EgressTarget = { ok: true; url: URL; address: string; family: 4 | 6 };
/**
 * `refused_target` is permanent (the delivery fails); `dns` may pass on a later attempt. `reason`
 * reaches the tenant; `detail`, when set, is for our logs only.
 */
export type EgressRefusal = {
  ok: false;
  errorClass: 'refused_target' | 'dns';
  reason: string;
  detail?: string;
};
export type PinnedAddress = { ok: true; address: string; family: 4 | 6 };

export type EgressGuardOptions = { allowPrivateTargets: boolean; lookup?: HostLookup };
export type EgressGuard = { check(rawUrl: string): Promise<EgressTarget | EgressRefusal> };

/** Every address of `hostname` in the resolver's order (getaddrinfo, so /etc/hosts counts too). */
export const systemLookup: HostLookup = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map(({ address }) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
};

function refused(reason: string): EgressRefusal {
  return { ok: false, errorClass: 'refused_target', reason };
}

function dnsFailure(reason: string): EgressRefusal {
  return { ok: false, errorClass: 'dns', reason };
}

/**
 * The one answer for a name that gives no address we may send to: it does not resolve, resolves to
 * nothing, or resolves only to refused addresses. One message and one class for all three, so a
 * tenant cannot learn through deliveries which internal names exist (a DNS oracle); retried, since
 * a public name may resolve later. What the resolver said is kept for our logs only.
 */
function noPublicAddress(hostname: string, detail: string): EgressRefusal {
  return { ...dnsFailure(`${hostname} does not resolve to a public address`), detail };
}

async function resolveOnce(hostname: string, lookup: HostLookup): Promise<ResolvedAddress[] | EgressRefusal> {
  const literalFamily = isIP(hostname);
  if (literalFamily !== 0) return [{ address: hostname, family: literalFamily === 6 ? 6 : 4 }];
  let answers: ResolvedAddress[];
  try {
    answers = await lookup(hostname);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return noPublicAddress(hostname, `lookup failed${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  // Only IP literals can be pinned; anything else a custom lookup answers is ignored.
  const addresses = answers.filter(({ address }) => isIP(address) !== 0);
  if (addresses.length === 0) return noPublicAddress(hostname, 'no address');
  return addresses.map(({ address }) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
}

/**
 * The address rule on its own: resolve `hostname` once (an IP literal is taken as is), drop every
 * address of a refused class unless private targets are allowed, and pin the first one left. An IP
 * literal is refused naming its class (the tenant wrote it); a name left with no address is the one
 * answer of noPublicAddress. No reason ever names an address: it reaches the tenant.
 */
export async function pinPublicAddress(
  hostname: string,
  opts: EgressGuardOptions,
): Promise<PinnedAddress | EgressRefusal> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const resolved = await resolveOnce(host, opts.lookup ?? systemLookup);
  if (!Array.isArray(resolved)) return resolved;
  const allowed = opts.allowPrivateTargets
    ? resolved
    : resolved.filter(({ address }) => blockedAddressClass(address) === undefined);
  const pinned = allowed[0];
  if (pinned) return { ok: true, address: pinned.address, family: pinned.family };
  const classes = [...new Set(resolved.map(({ address }) => blockedAddressClass(address)))].join(', ');
  return isIP(host) !== 0
    ? refused(`${host} is a ${classes} address`)
    : noPublicAddress(host, `only ${classes} addresses`);
}

export function createEgressGuard(opts: EgressGuardOptions): EgressGuard {
  return {
    async check(rawUrl) {
      const named = checkTargetUrl(rawUrl, { allowPrivateTargets: opts.allowPrivateTargets });
      if (!named.ok) return refused(named.problem);
      const url = new URL(named.url);
      const pinned = await pinPublicAddress(url.hostname, opts);
      if (!pinned.ok) return pinned;
      return { ok: true, url, address: pinned.address, family: pinned.family };
    },
  };
}
