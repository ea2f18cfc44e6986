import { create } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { type Money, MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecodedQr, DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { Instruction, PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { toMinorUnits } from '../http/money';

// The resolve step of the money path, for POST /v1/resolve, and the QR half of POST /v1/pay: the
// gateway decodes the QR and turns the request's JSON amount into minor units of the QR's
// currency (the JSON edge); payout decides the rest in one place (its instructions/resolve.ts:
// the amount owed, AmountRequired and AmountMismatch, rail limits, the FX quote), and fx alone
// says which wallet currencies it quotes (docs/api/fx-and-confidence.md "Wallet currencies").

export interface ResolveInstructionDeps {
  decoder: Pick<Client<typeof DecoderService>, 'decode'>;
  payout: Pick<Client<typeof PayoutService>, 'createInstruction'>;
}

export interface ResolveInput {
  tenantId: string;
  qrString: string;
  walletCurrency?: string | undefined;
  amount?: number | undefined;
}

/** What payout resolves a QR from: the decoded QR, the request's amount, the wallet currency. */
export interface DecodedRequest {
  decoded: DecodedQr;
  /** The request's amount in the QR's currency; undefined: none sent. */
  amount: Money | undefined;
  /** '' when none was sent. */
  walletCurrency: string;
}

/** Decodes the QR and converts the request's amount. */
export async function decodeRequest(
  deps: Pick<ResolveInstructionDeps, 'decoder'>,
  input: ResolveInput,
): Promise<DecodedRequest> {
  const { decoded } = await deps.decoder.decode({ qrString: input.qrString });
  if (!decoded) throw new Error('decoder returned no instruction');
  const amount =
    input.amount === undefined
      ? undefined
      : create(MoneySchema, {
          currency: decoded.currency,
          amountMinor: toMinorUnits(input.amount, decoded.currency, 'amount'),
        });
  return { decoded, amount, walletCurrency: input.walletCurrency ?? '' };
}

export async function resolveInstruction(
  deps: ResolveInstructionDeps,
  input: ResolveInput,
): Promise<Instruction> {
  const request = await decodeRequest(deps, input);
  const { instruction } = await deps.payout.createInstruction({
    tenantId: input.tenantId,
    decoded: request.decoded,
    ...(request.amount ? { amount: request.amount } : {}),
    walletCurrency: request.walletCurrency,
  });
  if (!instruction) throw new Error('payout returned no instruction');
  return instruction;
}
