// spec §4.2: execute requires the payer identity. Each field is checked for presence, length and
// (tax id) the documented format of the rail's country; the error names the request field.
import { Code, type ConnectError, serviceError } from '@qr-payout/platform';
import type { Payer } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { checkPayerTaxId } from './tax-ids';

export type ValidPayer = { readonly name: string; readonly account: string; readonly taxId: string };

const MAX_NAME = 140;
const MAX_ACCOUNT = 64;
const MAX_TAX_ID = 32;
// C0/C1 control characters have no place in a name or an account, and break partner files.
const CONTROL = /\p{Cc}/u;

function invalidPayer(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

function text(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalidPayer(field, `${field} is required`);
  if (trimmed.length > max) throw invalidPayer(field, `${field} must be at most ${max} characters`);
  if (CONTROL.test(trimmed)) throw invalidPayer(field, `${field} must not contain control characters`);
  return trimmed;
}

/** The payer, trimmed and with a normalized tax id; ValidationError naming the bad field. */
export function validatePayer(payer: Payer | undefined, country: string): ValidPayer {
  const name = text('payer_name', payer?.name ?? '', MAX_NAME);
  const account = text('payer_account', payer?.account ?? '', MAX_ACCOUNT);
  const rawTaxId = text('payer_tax_id', payer?.taxId ?? '', MAX_TAX_ID);
  const taxId = checkPayerTaxId(country, rawTaxId);
  if (!taxId.ok) throw invalidPayer('payer_tax_id', `payer_tax_id ${taxId.problem}`);
  return { name, account, taxId: taxId.normalized };
}
