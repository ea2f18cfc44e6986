// @qr-payout/platform/net: where the services may send a request (webhook targets, callback URLs),
// and the URL a client on this host dials for a listening server.

export { dialUrl } from './dial-url';
export { blockedAddressClass, parseIPv6 } from './ip-ranges';
export { checkTargetUrl, MAX_URL_LENGTH, type TargetUrlResult } from './target-url';
