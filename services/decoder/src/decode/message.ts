import { create } from '@bufbuild/protobuf';
import { type DecodedQr, DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { DecodedInstruction } from './types';

/** The DecodedQr message of a decoded instruction (the gRPC edge). */
export function toDecodedQrMessage(instruction: DecodedInstruction): DecodedQr {
  return create(DecodedQrSchema, {
    schemeId: instruction.schemeId,
    country: instruction.country,
    currency: instruction.currency,
    amount:
      instruction.amountMinor === undefined
        ? undefined
        : { currency: instruction.currency, amountMinor: instruction.amountMinor },
    creditor: { ...instruction.creditor },
    confidence: instruction.confidence,
    confidenceFactors: instruction.confidenceFactors.map((factor) => ({ ...factor })),
    pointOfInitiation: instruction.pointOfInitiation,
    rail: instruction.rail,
    references: { ...instruction.references },
    channel: instruction.channel,
  });
}
