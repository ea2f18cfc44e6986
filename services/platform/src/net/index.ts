// @qr-payout/platform/net: where the services may send a request (webhook targets, callback URLs),
// and the URL a client on this host dials for a listening server.

export { dialUrl } from './dial-url';
export { blockedAddressClass } from './ip-ranges';
export { checkTargetUrl } from './target-url';
