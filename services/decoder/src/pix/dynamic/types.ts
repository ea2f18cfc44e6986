// The contract between the decoder's Brazil profile and the dynamic Pix fetch+verify module:
// the profile only knows this interface; the fetcher is injected through deps.ts.

/** The verified content of the signed (JWS) payload a dynamic Pix location names. */
export interface DynamicPixPayload {
  txid: string;
  key: string;
  creditorName?: string;
  amountMinor?: bigint | number;
  currency: 'BRL';
  status: string;
  expiresAt?: Date;
  revision?: number;
}

/**
 * Fetches the payload at a dynamic Pix location (26/25, without scheme) and verifies its
 * signature; throws serviceError('QrDecodeError', ...) when it cannot be fetched or verified.
 */
export interface DynamicPixFetcher {
  fetch(location: string): Promise<DynamicPixPayload>;
}
