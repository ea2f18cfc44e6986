// The address classes live in platform, next to the target URL rules that use them.
export { blockedAddressClass, parseIPv6 } from '@qr-payout/platform/net';
