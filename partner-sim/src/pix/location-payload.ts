import type { PixCharge } from './charges';

// The JSON a payer's PSP receives, signed, from a charge's location (BCB Manual de Padrões para
// Iniciação do Pix, "payload JSON" of a cob). An expired charge keeps its status: the BCB leaves
// expiry to calendario (criacao + expiracao), which the payer's PSP must check itself.

export type LocationPayload = {
  txid: string;
  revisao: number;
  calendario: { criacao: string; apresentacao: string; expiracao: number };
  status: string;
  valor: { original: string };
  chave: string;
  recebedor: { nome: string };
  solicitacaoPagador?: string;
};

/** The payload of `charge` as presented at `presentedAt` (`calendario.apresentacao`). */
export function locationPayload(charge: PixCharge, presentedAt: Date): LocationPayload {
  return {
    txid: charge.txid,
    revisao: charge.revision,
    calendario: {
      criacao: charge.createdAt.toISOString(),
      apresentacao: presentedAt.toISOString(),
      expiracao: charge.expiresInSeconds,
    },
    status: charge.status,
    valor: { original: charge.amount },
    chave: charge.key,
    recebedor: { nome: charge.creditorName },
    ...(charge.payerRequest === undefined ? {} : { solicitacaoPagador: charge.payerRequest }),
  };
}
