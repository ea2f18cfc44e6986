// ApplyPartnerCallback (docs/partner-protocol.md "Payout resource"; docs/architecture.md "Rails and
// partners"): a partner's word on a payout moves its transaction on.

import { isId } from '@qr-payout/platform/ids';
import { describeJsonProblem, JsonRefused, parseStrictJson } from '@qr-payout/platform/json';
import { type PayoutResource, parsePayoutResource } from '@qr-payout/platform/partner-protocol';
import type { ApplyPartnerCallbackRequest, Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { railAdapterFor } from '../rails/adapters';
import { transactionNotFound } from '../transactions/errors';
import { toTransactionMessage } from '../transactions/transaction-message';
import type { Execution } from './context';
import { invalidRequest } from './errors';
import { isTerminal } from './wait';

/**
 * The partner's payout resource a callback body carries; ValidationError naming `payload` when it
 * is not JSON or not a payout resource (the gateway answers 400, the partner sees its error).
 */
function parseCallbackPayload(payload: Uint8Array): PayoutResource {
  let body: unknown;
  try {
    body = parseStrictJson(Buffer.from(payload).toString('utf8'));
  } catch (err) {
    if (err instanceof JsonRefused) throw invalidRequest('payload', describeJsonProblem(err.problem));
    throw err;
  }
  const resource = parsePayoutResource(body);
  if (!resource) {
    throw invalidRequest('payload', 'The request body is not a payout resource (docs/partner-protocol.md).');
  }
  return resource;
}

export async function applyPartnerCallback(
  x: Execution,
  req: ApplyPartnerCallbackRequest,
): Promise<Transaction> {
  // The gateway verified the signature and forwards the bytes it covered; what they say is
  // read here alone (docs/partner-protocol.md "Payout resource").
  const resource = parseCallbackPayload(req.payload);
  if (resource.rail !== req.rail) {
    throw invalidRequest('rail', `rail ${resource.rail} does not match the callback path (${req.rail})`);
  }
  if (!isId(resource.idempotency_key, 'txn')) throw transactionNotFound();
  const row =
    x.held.get(resource.idempotency_key) ?? (await x.store.findTransaction(resource.idempotency_key));
  if (!row) throw transactionNotFound();
  if (req.rail !== row.rail) throw invalidRequest('rail', 'the callback came for another rail');
  if (row.partnerPayoutId !== null && resource.id !== row.partnerPayoutId) {
    throw invalidRequest('partner_payout_id', 'the callback names another partner payout');
  }
  // A callback repeated after settlement (partners retry) changes nothing.
  if (isTerminal(row)) return toTransactionMessage(row);
  const adapter = railAdapterFor(row.rail);
  if (!adapter) throw invalidRequest('rail', `rail ${row.rail} is not served`);
  const outcome = adapter.toOutcome(resource);
  // The row as the settlement left it; read again only when another path got there first.
  const after =
    (await x.settlement.applyPartnerOutcome(row.id, outcome, 0, row)) ??
    (await x.store.findTransaction(row.id));
  if (!after) throw transactionNotFound();
  return toTransactionMessage(after);
}
