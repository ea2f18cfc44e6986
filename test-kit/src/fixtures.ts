// @qr-payout/test-kit/fixtures: ids and people the tests make up.
import { uniqueName } from './schema';

/** A fresh tenant id (`ten_test_<hex>`), so suites sharing a schema never see each other's rows. */
export function testTenantId(prefix = 'ten_test'): string {
  return uniqueName(prefix);
}

/** A payer payout accepts for Brazil: a valid CPF (mod-11 check digits), as payout checks it. */
export const PAYER = {
  payer_name: 'Ana Souza',
  payer_account: '0001-1234567',
  payer_tax_id: '529.982.247-25',
};
