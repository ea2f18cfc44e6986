// Acquirer and wallet QRs (AR, CO, PE, BO) name a merchant at an acquirer, not an account: the
// identifier the rail resolves is the acquirer's merchant id, found here the same way everywhere
// (docs/qr-schemes.md "Acquirer and wallet QRs").
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type EmvPayload, type TlvList, tlvGet } from '../emv/tlv';

export interface KnownAcquirer {
  /** Short stable name, returned as the `acquirer` reference. */
  readonly name: string;
  /** Sub-ids holding the merchant id, most specific first; default: the first sub-id after 00. */
  readonly merchantIdSubIds?: readonly number[];
}

// Mercado Pago: 03 collector user id, 06 POS uuid, 01 version or mpago.la POS URL
// (docs/qr-schemes.md "Acquirer and wallet QRs").
export const MERCADO_PAGO: KnownAcquirer = { name: 'mercadopago', merchantIdSubIds: [3, 6, 1] };

export interface AcquirerAccount {
  readonly account: string;
  readonly accountType: AccountType;
  /** Whether a merchant id was found (not just the acquirer's GUI). */
  readonly hasMerchantId: boolean;
  readonly acquirer?: string;
  readonly gui?: string;
  readonly known: boolean;
}

function firstSubValue(template: TlvList): string | undefined {
  for (let i = 0; i < template.ids.length; i++)
    if (template.ids[i] !== 0 && template.values[i] !== '') return template.values[i];
  return undefined;
}

function merchantIdOf(template: TlvList, known: KnownAcquirer | undefined): string | undefined {
  if (known?.merchantIdSubIds) {
    for (const subId of known.merchantIdSubIds) {
      const value = tlvGet(template, subId);
      if (value) return value;
    }
    return undefined;
  }
  return firstSubValue(template);
}

/**
 * The merchant id the rail resolves: a known acquirer's template first, then any template, then a
 * card network's merchant id (02–25), then `fallbackId` (CUIT, merchant code), then the GUI alone.
 */
export function findAcquirerAccount(
  emv: EmvPayload,
  acquirers: ReadonlyMap<string, KnownAcquirer>,
  options: { skip?: ReadonlySet<number>; fallbackId?: string } = {},
): AcquirerAccount | undefined {
  let firstGui: { gui: string; known?: KnownAcquirer } | undefined;
  let unknownMatch: AcquirerAccount | undefined;
  let opaque: string | undefined;
  for (let id = 26; id <= 51; id++) {
    if (options.skip?.has(id)) continue;
    const raw = emv.get(id);
    if (raw === undefined) continue;
    const template = emv.template(id);
    const gui = template && tlvGet(template, 0);
    if (!template || gui === undefined) {
      opaque ??= raw;
      continue;
    }
    const known = acquirers.get(gui.toLowerCase());
    firstGui ??= { gui, known };
    if (known && !firstGui.known) firstGui = { gui, known };
    const merchantId = merchantIdOf(template, known);
    if (!merchantId) continue;
    const match = {
      account: merchantId,
      accountType: AccountType.MERCHANT_ID,
      hasMerchantId: true,
      acquirer: known?.name,
      gui,
      known: known !== undefined,
    };
    if (known) return match;
    unknownMatch ??= match;
  }
  if (unknownMatch) return unknownMatch;
  const describe = {
    acquirer: firstGui?.known?.name,
    gui: firstGui?.gui,
    known: firstGui?.known !== undefined,
  };
  for (let id = 2; id <= 25; id++) {
    const cardMerchantId = emv.get(id);
    if (cardMerchantId)
      return {
        account: cardMerchantId,
        accountType: AccountType.MERCHANT_ID,
        hasMerchantId: true,
        ...describe,
      };
  }
  if (options.fallbackId)
    return {
      account: options.fallbackId,
      accountType: AccountType.MERCHANT_ID,
      hasMerchantId: true,
      ...describe,
    };
  if (firstGui)
    return { account: firstGui.gui, accountType: AccountType.RAIL_TOKEN, hasMerchantId: false, ...describe };
  if (opaque !== undefined)
    return { account: opaque, accountType: AccountType.RAIL_TOKEN, hasMerchantId: false, known: false };
  return undefined;
}

/** References every acquirer QR carries: acquirer name and GUI. */
export function acquirerReferences(
  found: AcquirerAccount,
  into: Record<string, string>,
): Record<string, string> {
  if (found.acquirer) into.acquirer = found.acquirer;
  if (found.gui) into.acquirer_gui = found.gui;
  return into;
}
