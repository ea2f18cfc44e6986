// What execute and pay check before anything is written: their key, fingerprint and wait, and the
// payment (payer, callback_url) as the partner request would carry it.

import { checkIdempotencyKey, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '@qr-payout/platform/idempotency-key';
import { checkTargetUrl } from '@qr-payout/platform/net';
import type { ExecuteInstructionRequest } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type ValidPayer, validatePayer } from '../payers/validate-payer';
import { railAdapterFor } from '../rails/adapters';
import { RailMappingError } from '../rails/rail-adapter';
import { tenantRequired } from '../transactions/errors';
import type { Execution } from './context';
import { idempotencyKeyMissing, invalidRequest } from './errors';
import type { ExecutableInstruction } from './records';
import { partnerCallbackUrl, submissionInput } from './submission';

const FINGERPRINT = /^[0-9A-Za-z+/=_-]{1,128}$/;

/** What execute and pay check of their key, fingerprint and wait before anything else. */
export function checkKeyedRequest(req: {
  tenantId: string;
  idempotencyKey: string;
  requestFingerprint: string;
  waitMs: number;
}): void {
  if (req.tenantId === '') throw tenantRequired();
  const verdict = checkIdempotencyKey(req.idempotencyKey);
  if (verdict === 'missing') throw idempotencyKeyMissing();
  if (verdict === 'invalid') throw invalidRequest('idempotency_key', INVALID_IDEMPOTENCY_KEY_MESSAGE);
  if (!FINGERPRINT.test(req.requestFingerprint)) {
    throw invalidRequest(
      'request_fingerprint',
      'request_fingerprint must be 1 to 128 hex or base64 characters',
    );
  }
  if (req.waitMs < 0) throw invalidRequest('wait_ms', 'wait_ms must not be negative');
}

/**
 * The ad-hoc webhook target of execute and pay (docs/architecture.md "Transactions"), by the rules
 * of registered endpoints (platform checkTargetUrl, docs/api/webhooks.md "Where we send";
 * docs/api/idempotency.md "Execute and pay"): the one check of callback_url. Returns the normalized
 * URL, null when none was given.
 */
function checkCallbackUrl(value: string, allowPrivateTargets: boolean): string | null {
  if (value === '') return null;
  const checked = checkTargetUrl(value, { allowPrivateTargets });
  if (!checked.ok) throw invalidRequest('callback_url', checked.problem.replace(/^url\b/, 'callback_url'));
  return checked.url;
}

/**
 * The payer and callback_url of a first execute or pay, checked with the partner request of
 * `transactionId` they would make: refused now what the partner request could not carry, rather
 * than failed after the commit. `field`: what a rail that cannot carry it is blamed on.
 */
export function checkPayment(
  x: Pick<Execution, 'allowPrivateCallbackTargets' | 'callbackBaseUrl'>,
  req: Pick<ExecuteInstructionRequest, 'payer' | 'callbackUrl'>,
  instruction: Pick<ExecutableInstruction, 'country' | 'rail' | 'amountCurrency' | 'amountMinor' | 'decoded'>,
  transactionId: string,
  field: string,
): { payer: ValidPayer; callbackUrl: string | null } {
  const payer = validatePayer(req.payer);
  const callbackUrl = checkCallbackUrl(req.callbackUrl, x.allowPrivateCallbackTargets);
  const adapter = railAdapterFor(instruction.rail);
  if (!adapter) throw invalidRequest(field, `rail ${instruction.rail} is not served`);
  try {
    adapter.toPartnerRequest(
      submissionInput(
        {
          transactionId,
          amountCurrency: instruction.amountCurrency,
          amountMinor: instruction.amountMinor,
          decodedJson: instruction.decoded,
          payer,
        },
        partnerCallbackUrl(x.callbackBaseUrl, adapter.rail),
      ),
    );
  } catch (err) {
    if (err instanceof RailMappingError) throw invalidRequest(field, err.message);
    throw err;
  }
  return { payer, callbackUrl };
}
