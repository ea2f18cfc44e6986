// docs/api/idempotency.md "Execute and pay": execute requires the payer identity. Name and account
// are checked for presence, length and control characters; payer_tax_id is the payer's own
// identifier in their own country, checked by that country's rules when payer_country (and
// payer_id_type) say which (docs/payer-identity.md). The error names the request field.
import { Code, type ConnectError, serviceError } from '@qr-payout/platform/errors';
import {
  PAYER_TEXT_MAX_LENGTH,
  type PayerIdType,
  type PayerTextField,
} from '@qr-payout/platform/payer-fields';
import { firstForbidden } from '@qr-payout/platform/text';
import type { Payer } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { resolvePayerDocument } from './identity';

/** A checked payer; taxId, country and idType are its document (identity.ts PayerDocument). */
export type ValidPayer = {
  readonly name: string;
  readonly account: string;
  /** Normalized by its document's rule, or as written (trimmed) when none applies. */
  readonly taxId: string;
  /** Issuing country; null when not declared. */
  readonly country: string | null;
  /** null when not declared nor inferred. */
  readonly idType: PayerIdType | null;
};

function invalidPayer(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

function text(field: PayerTextField, value: string): string {
  const max = PAYER_TEXT_MAX_LENGTH[field];
  const trimmed = value.trim();
  if (trimmed === '') throw invalidPayer(field, `${field} is required`);
  // Characters as the API's schema counts them (JSON Schema maxLength: code points), not UTF-16
  // units: a character outside the BMP is one, as the gateway's validation already counted it.
  if ([...trimmed].length > max) throw invalidPayer(field, `${field} must be at most ${max} characters`);
  // Control and bidirectional formatting characters, and lone surrogates, have no place in a name,
  // an account or a document number, and break partner files (docs/payer-identity.md "Fields").
  if (firstForbidden(trimmed) >= 0)
    throw invalidPayer(field, `${field} must not contain control or formatting characters`);
  return trimmed;
}

/** The payer, trimmed and with its document resolved; ValidationError naming the bad field. */
export function validatePayer(payer: Payer | undefined): ValidPayer {
  const name = text('payer_name', payer?.name ?? '');
  const account = text('payer_account', payer?.account ?? '');
  const id = text('payer_tax_id', payer?.taxId ?? '');
  const resolved = resolvePayerDocument({ id, country: payer?.country, idType: payer?.idType });
  if (!resolved.ok) throw invalidPayer(resolved.field, resolved.message);
  const { number, country, idType } = resolved.document;
  return { name, account, taxId: number, country, idType };
}
