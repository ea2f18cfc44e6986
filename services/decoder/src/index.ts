// The package's public surface (`@qr-payout/decoder`): the start function and what other packages'
// tests build QR codes with. The wiring itself is in start.ts.

// What startDecoder resolves to: `{ url, stop() }` (stop drains in-flight calls, stops the workers, closes the deps).
export type { RunningGrpcService as RunningDecoder } from '@qr-payout/platform/grpc';
export { loadDecoderConfig } from './config';
export type { DecodedInstruction } from './decode/types';
export type { DecoderDepsOverrides } from './deps';
export { type EmvObject, encodeMerchantQr, encodeTlv } from './emv/encode';
export type { DynamicPixFetcher, DynamicPixPayload } from './pix/dynamic/types';
export { SCHEME_CATALOGUE, type SchemeEntry } from './schemes/catalogue';
export { startDecoder } from './start';
