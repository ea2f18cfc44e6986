// The five rails of docs/architecture.md "What the service does"
// (docs/architecture.md "Rails and partners"), each reached through a partner PSP that speaks the
// partner protocol. Account type names are the protocol's (lower snake case, rail-prefixed where
// the rail has its own key directory).

import type { RailName } from '@qr-payout/platform/partner-protocol';
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { defineRailAdapter, type RailAdapter } from './rail-adapter';

/** Brazil, Pix (SPI): DICT keys, or the location of a dynamic BR Code. */
export const pixAdapter = defineRailAdapter({
  rail: 'pix',
  currency: 'BRL',
  accountTypes: new Map([
    [AccountType.PIX_CPF, 'pix_cpf'],
    [AccountType.PIX_CNPJ, 'pix_cnpj'],
    [AccountType.PHONE, 'pix_phone'],
    [AccountType.EMAIL, 'pix_email'],
    [AccountType.PIX_EVP, 'pix_evp'],
    [AccountType.PIX_LOCATION, 'pix_location'],
  ]),
});

/** Argentina, Transferencias 3.0 (COELSA, Red Link, Prisma): a CBU/CVU, or an acquirer's merchant. */
export const transferenciasAdapter = defineRailAdapter({
  rail: 'transferencias-3.0',
  currency: 'ARS',
  accountTypes: new Map([
    [AccountType.CBU_CVU, 'cbu_cvu'],
    [AccountType.MERCHANT_ID, 'merchant_id'],
    [AccountType.RAIL_TOKEN, 'rail_token'],
  ]),
});

/** Colombia, Bre-B (Banco de la República): Bre-B keys, or a network merchant code. */
export const brebAdapter = defineRailAdapter({
  rail: 'bre-b',
  currency: 'COP',
  accountTypes: new Map([
    [AccountType.PHONE, 'breb_phone'],
    [AccountType.EMAIL, 'breb_email'],
    [AccountType.BREB_KEY, 'breb_key'],
    [AccountType.MERCHANT_ID, 'merchant_id'],
    [AccountType.RAIL_TOKEN, 'rail_token'],
  ]),
});

/** Peru, CCE Transferencias Inmediatas: wallet tokens (Yape) and acquirer merchants. */
export const cceAdapter = defineRailAdapter({
  rail: 'cce-inmediatas',
  currency: 'PEN',
  accountTypes: new Map([
    [AccountType.RAIL_TOKEN, 'rail_token'],
    [AccountType.MERCHANT_ID, 'merchant_id'],
  ]),
});

/** Bolivia, interoperable QR transfers (BCB, ACCL): acquirer merchants and tokens. */
export const boliviaQrAdapter = defineRailAdapter({
  rail: 'bolivia-qr-interoperable',
  currency: 'BOB',
  accountTypes: new Map([
    [AccountType.MERCHANT_ID, 'merchant_id'],
    [AccountType.RAIL_TOKEN, 'rail_token'],
  ]),
});

const ADAPTERS: Readonly<Record<RailName, RailAdapter>> = {
  pix: pixAdapter,
  'transferencias-3.0': transferenciasAdapter,
  'bre-b': brebAdapter,
  'cce-inmediatas': cceAdapter,
  'bolivia-qr-interoperable': boliviaQrAdapter,
};

/** The adapter of a rail name as instructions store it; undefined for a rail we do not serve. */
export function railAdapterFor(rail: string): RailAdapter | undefined {
  return Object.hasOwn(ADAPTERS, rail) ? ADAPTERS[rail as RailName] : undefined;
}
