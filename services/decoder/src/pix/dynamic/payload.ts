import { dynamicPixError } from './errors';
import type { DynamicPixPayload } from './types';

// The JSON inside a dynamic Pix JWS (BCB Manual de Padrões para Iniciação do Pix;
// docs/qr-schemes.md "Dynamic Pix locations"): txid, revisao, calendario {criacao, apresentacao,
// expiracao}, status, valor.original, chave, and the receiver's name when the PSP sends it
// (recebedor.nome). Only what a payout needs is read; everything else the PSP sends is ignored.

/** BCB: a charge without calendario.expiracao expires one day after creation. */
export const DEFAULT_EXPIRY_SECONDS = 86_400;

/** BCB amounts: decimal string with exactly two digits after the point. */
const AMOUNT = /^(\d{1,12})\.(\d{2})$/;

function malformed(why: string) {
  return dynamicPixError('payload_malformed', `The dynamic Pix payload is not usable: ${why}.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requiredString(object: Record<string, unknown>, name: string, path = name): string {
  const value = object[name];
  if (typeof value !== 'string' || value.trim() === '')
    throw malformed(`"${path}" is missing or not a string`);
  return value;
}

/** "12.34" → 1234n, never through a float. */
export function amountToMinor(text: string): bigint {
  const match = AMOUNT.exec(text);
  if (!match)
    throw malformed(`"valor.original" (${JSON.stringify(text.slice(0, 20))}) is not an amount like 12.34`);
  return BigInt(match[1] as string) * 100n + BigInt(match[2] as string);
}

function readExpiry(calendario: Record<string, unknown>): { createdAt: Date; expiresAt: Date } {
  const criacao = requiredString(calendario, 'criacao', 'calendario.criacao');
  const createdAt = new Date(criacao);
  if (Number.isNaN(createdAt.getTime())) throw malformed('"calendario.criacao" is not a date');
  const expiracao = calendario.expiracao ?? DEFAULT_EXPIRY_SECONDS;
  if (typeof expiracao !== 'number' || !Number.isInteger(expiracao) || expiracao <= 0) {
    throw malformed('"calendario.expiracao" is not a positive number of seconds');
  }
  return { createdAt, expiresAt: new Date(createdAt.getTime() + expiracao * 1000) };
}

/** Reads the payload JSON bytes; throws QrDecodeError naming the first unusable field. */
export function readLocationPayload(bytes: Buffer): DynamicPixPayload {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformed('it is not JSON');
  }
  if (!isObject(json)) throw malformed('it is not a JSON object');
  const calendario = json.calendario;
  if (!isObject(calendario)) throw malformed('"calendario" is missing');
  const { expiresAt } = readExpiry(calendario);
  const revisao = json.revisao;
  if (revisao !== undefined && (typeof revisao !== 'number' || !Number.isInteger(revisao) || revisao < 0)) {
    throw malformed('"revisao" is not a non-negative integer');
  }
  const valor = json.valor;
  const original = isObject(valor) ? valor.original : undefined;
  if (original !== undefined && typeof original !== 'string')
    throw malformed('"valor.original" is not a string');
  const recebedor = json.recebedor;
  const nome = isObject(recebedor) && typeof recebedor.nome === 'string' ? recebedor.nome.trim() : '';
  return {
    txid: requiredString(json, 'txid'),
    key: requiredString(json, 'chave'),
    ...(nome === '' ? {} : { creditorName: nome }),
    ...(original === undefined ? {} : { amountMinor: amountToMinor(original) }),
    currency: 'BRL',
    status: requiredString(json, 'status'),
    expiresAt,
    ...(revisao === undefined ? {} : { revision: revisao }),
  };
}

/** Only an ATIVA charge inside its calendar can be paid; throws QrDecodeError otherwise. */
export function assertPayable(payload: DynamicPixPayload, now: Date): void {
  if (payload.status !== 'ATIVA') {
    throw dynamicPixError(
      'not_active',
      `The dynamic Pix charge cannot be paid: its status is ${payload.status.slice(0, 40)}, not ATIVA.`,
      { status: payload.status.slice(0, 40) },
    );
  }
  if (payload.expiresAt && payload.expiresAt.getTime() <= now.getTime()) {
    throw dynamicPixError(
      'expired',
      `The dynamic Pix charge expired at ${payload.expiresAt.toISOString()}.`,
      { expired_at: payload.expiresAt.toISOString() },
    );
  }
}
