// The rules live in platform: the gateway checks execute's callback_url with the same ones.
export { checkTargetUrl, MAX_URL_LENGTH, type TargetUrlResult } from '@qr-payout/platform/net';
