import type { FastifyInstance } from 'fastify';
import { buildDynamicBrCode, MAX_CITY_LENGTH, MAX_NAME_LENGTH, toBrCodeText } from '../pix/brcode';
import { type ChargeStore, expiresAt, type PixCharge } from '../pix/charges';
import { locationOf } from '../pix/location';
import { sendProblem } from './problem';

// The receiving PSP's side of dynamic Pix for tests and the sandbox: create a charge ("cob") and
// get its BR Code, read it back, remove it. Shaped after the BCB API Pix (/v2/cob), trimmed to
// what the simulator needs; `qr_string` is the BR Code ("pix copia e cola").

export type PixChargeRouteDeps = {
  charges: ChargeStore;
  publicUrl: () => string;
};

type CreateChargeBody = {
  /** `valor.original`, e.g. "12.34". */
  valor: string;
  chave: string;
  /** The receiver's name (BR Code 59, `recebedor.nome` of the payload). */
  nome: string;
  cidade?: string;
  /** Seconds the charge can be paid for; the BCB default is one day. */
  expiracao?: number;
  solicitacaoPagador?: string;
};

const DEFAULT_EXPIRY_SECONDS = 86_400;
const DEFAULT_CITY = 'SAO PAULO';

const createChargeSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['valor', 'chave', 'nome'],
    properties: {
      valor: { type: 'string', pattern: '^[0-9]{1,10}\\.[0-9]{2}$' },
      chave: { type: 'string', minLength: 1, maxLength: 77 },
      nome: { type: 'string', minLength: 1, maxLength: 200 },
      cidade: { type: 'string', minLength: 1, maxLength: 200 },
      expiracao: { type: 'integer', minimum: 1, maximum: 31_536_000 },
      solicitacaoPagador: { type: 'string', maxLength: 140 },
    },
  },
} as const;

const txidParams = {
  params: {
    type: 'object',
    required: ['txid'],
    properties: { txid: { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$' } },
  },
} as const;

const changeStatusSchema = {
  ...txidParams,
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    // The BCB API lets the receiver only remove a charge; CONCLUIDA comes from a payment.
    properties: { status: { type: 'string', enum: ['REMOVIDA_PELO_USUARIO_RECEBEDOR'] } },
  },
} as const;

function chargeView(charge: PixCharge, publicUrl: string) {
  const location = locationOf(publicUrl, charge.locationId);
  return {
    txid: charge.txid,
    revisao: charge.revision,
    status: charge.status,
    calendario: {
      criacao: charge.createdAt.toISOString(),
      expiracao: charge.expiresInSeconds,
      // Not a BCB field: spares tests and sandbox users the arithmetic.
      expira_em: expiresAt(charge).toISOString(),
    },
    valor: { original: charge.amount },
    chave: charge.key,
    location,
    qr_string: buildDynamicBrCode({
      location,
      amount: charge.amount,
      merchantName: charge.creditorName,
      merchantCity: charge.creditorCity,
    }),
  };
}

export function registerPixChargeRoutes(app: FastifyInstance, deps: PixChargeRouteDeps): void {
  app.post<{ Body: CreateChargeBody }>('/pix/v2/cob', { schema: createChargeSchema }, (request, reply) => {
    const body = request.body;
    const city = body.cidade ?? DEFAULT_CITY;
    // BR Code 59 and 60 are ASCII: a name or city with nothing left after stripping is refused.
    if (toBrCodeText(body.nome, MAX_NAME_LENGTH) === '' || toBrCodeText(city, MAX_CITY_LENGTH) === '') {
      return sendProblem(reply, 400, 'CobOperacaoInvalida', 'nome and cidade need ASCII letters');
    }
    const charge = deps.charges.create({
      amount: body.valor,
      key: body.chave,
      creditorName: body.nome,
      creditorCity: city,
      expiresInSeconds: body.expiracao ?? DEFAULT_EXPIRY_SECONDS,
      ...(body.solicitacaoPagador === undefined ? {} : { payerRequest: body.solicitacaoPagador }),
    });
    const view = chargeView(charge, deps.publicUrl());
    return reply.code(201).send(view);
  });

  app.get<{ Params: { txid: string } }>('/pix/v2/cob/:txid', { schema: txidParams }, (request, reply) => {
    const charge = deps.charges.byTxid(request.params.txid);
    if (!charge) return sendProblem(reply, 404, 'CobNaoEncontrado', 'no charge with this txid');
    return reply.send(chargeView(charge, deps.publicUrl()));
  });

  app.patch<{ Params: { txid: string }; Body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }>(
    '/pix/v2/cob/:txid',
    { schema: changeStatusSchema },
    (request, reply) => {
      const before = deps.charges.byTxid(request.params.txid);
      if (!before) return sendProblem(reply, 404, 'CobNaoEncontrado', 'no charge with this txid');
      if (before.status !== 'ATIVA') {
        return sendProblem(reply, 409, 'CobOperacaoInvalida', `the charge is ${before.status}, not ATIVA`);
      }
      const changed = deps.charges.changeStatus(before.txid, request.body.status) ?? before;
      return reply.send(chargeView(changed, deps.publicUrl()));
    },
  );
}
