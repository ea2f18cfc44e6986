// ListPayerIdentityRules (GET /v1/schemes payer_identity): what execute and pay accept as the
// payer's identity, written from the same catalogue validate-payer.ts checks against, so the
// published rules cannot drift from the enforced ones (docs/payer-identity.md).
import { create } from '@bufbuild/protobuf';
import { PAYER_ID_TYPES, PAYER_TEXT_MAX_LENGTH } from '@qr-payout/platform/payer-fields';
import {
  type ListPayerIdentityRulesResponse,
  ListPayerIdentityRulesResponseSchema,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { DOCUMENT_RULES, PASSPORT_FORMAT } from './documents';

const FIELDS = [
  {
    field: 'payer_name',
    required: true,
    description: `Full name of the payer as on their identity document (1 to ${PAYER_TEXT_MAX_LENGTH.payer_name} characters).`,
  },
  {
    field: 'payer_account',
    required: true,
    description: `Account of the payer at the sending wallet or bank: account number or wallet account id (1 to ${PAYER_TEXT_MAX_LENGTH.payer_account} characters).`,
  },
  {
    field: 'payer_tax_id',
    required: true,
    description:
      `The payer's own identifier in their own country (tax id, national id or passport number), 1 to ${PAYER_TEXT_MAX_LENGTH.payer_tax_id} ` +
      "characters. With payer_country it is checked against that country's documents (check digits where " +
      'the document has them); without it, it is sent to the partner as an undeclared foreign identifier.',
  },
  {
    field: 'payer_country',
    required: false,
    description:
      'ISO 3166-1 alpha-2 code (upper case) of the country that issued payer_tax_id. The payer is a ' +
      "resident of the merchant's country when this is that country.",
  },
  {
    field: 'payer_id_type',
    required: false,
    description:
      `What payer_tax_id is: ${PAYER_ID_TYPES.join(', ')}; requires payer_country. Without it the type is ` +
      'inferred from the one document of the country the id fits; an id that fits two (a Colombian NIT ' +
      'written without its dash also has the shape of a CC) is refused until payer_id_type says which.',
  },
] as const;

/** The rules as ListPayerIdentityRules answers them; a fresh message per call. */
export function payerIdentityRulesMessage(): ListPayerIdentityRulesResponse {
  return create(ListPayerIdentityRulesResponseSchema, {
    fields: FIELDS.map((f) => ({ ...f })),
    documents: DOCUMENT_RULES.map(({ country, idType, name, format }) => ({ country, idType, name, format })),
    passportFormat: PASSPORT_FORMAT,
  });
}
