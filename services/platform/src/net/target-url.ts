import { blockedAddressClass } from './ip-ranges';

// Where a webhook may be sent (docs/api/webhooks.md "Where we send"), for registered endpoints
// (webhook service) and the ad-hoc callback_url of execute and pay (gateway) alike: an absolute
// https URL whose host is not a literal loopback, private, link-local or metadata address, nor
// localhost. With WEBHOOK_ALLOW_PRIVATE_TARGETS=true (sandbox and tests) http and private hosts are
// allowed. Host names are checked again against their resolved addresses when a delivery is sent.

export const MAX_URL_LENGTH = 2048;

// Host names that always mean this machine or the cloud metadata service.
const LOCAL_HOST_NAMES = /^(localhost|[^.]+\.localhost|metadata|metadata\.google\.internal|instance-data)$/;

export type TargetUrlResult = { ok: true; url: string } | { ok: false; problem: string };

export function checkTargetUrl(raw: string, opts: { allowPrivateTargets: boolean }): TargetUrlResult {
  if (raw.trim() === '') return { ok: false, problem: 'url is required' };
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, problem: `url must be at most ${MAX_URL_LENGTH} characters` };
  }
  const url = URL.parse(raw.trim());
  if (!url) return { ok: false, problem: 'url must be an absolute URL' };
  const allowedProtocols = opts.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowedProtocols.includes(url.protocol)) {
    return { ok: false, problem: `url must use ${opts.allowPrivateTargets ? 'http or https' : 'https'}` };
  }
  if (url.username !== '' || url.password !== '') {
    // The URL is listed in clear; credentials belong in a custom header, whose value is sealed.
    return { ok: false, problem: 'url must not carry credentials; use a custom header instead' };
  }
  if (opts.allowPrivateTargets) return { ok: true, url: url.href };

  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (LOCAL_HOST_NAMES.test(host)) {
    return { ok: false, problem: 'url must not point at a local or metadata host' };
  }
  const blocked = blockedAddressClass(host);
  if (blocked) return { ok: false, problem: `url must not point at a ${blocked} address` };
  return { ok: true, url: url.href };
}
