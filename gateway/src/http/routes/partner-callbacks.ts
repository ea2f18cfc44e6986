import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Client } from '@connectrpc/connect';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { apiError } from '../../errors/api-error';
import { PARTNER_SIGNATURE_HEADER, verifyPartnerSignature } from '../../payments/partner-signature';
import { PARTNER_CALLBACK_SCHEMA } from '../schemas';

// Callbacks of the rails' partners (design §1, §4): the partner POSTs its payout resource when the
// payout reaches a terminal state. Public port (partners call from outside), no x-api-key and no
// per-key rate limit: the signature is the authentication. The 2xx is sent only after payout has
// applied the callback, so a partner retries every callback we could not apply.

/** The rails whose partners call back (partner-sim/README.md "Partner protocol"). */
export const PARTNER_RAILS = [
  'pix',
  'transferencias-3.0',
  'bre-b',
  'cce-inmediatas',
  'bolivia-qr-interoperable',
];

/** A payout resource is well under 2 KiB; anything much larger is not a callback. */
export const PARTNER_CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

export interface PartnerCallbackRouteDeps {
  payout: Pick<Client<typeof PayoutService>, 'applyPartnerCallback'>;
  /** PARTNER_CALLBACK_SECRET; undefined: callbacks are refused with 503 (not configured). */
  secret: string | undefined;
  logger: Logger;
  now?: () => number;
}

interface PartnerPayoutResource {
  id: string;
  idempotency_key: string;
  rail?: string;
  status: 'PDNG' | 'ACSP' | 'ACSC' | 'RJCT';
  reason_code?: string | null;
  reason?: string | null;
  reference?: string | null;
  settled_at?: string | null;
}

export function registerPartnerCallbackRoute(app: FastifyInstance, deps: PartnerCallbackRouteDeps): void {
  const now = deps.now ?? Date.now;

  // The signature covers the exact bytes, so this route keeps the raw body: its own JSON parser
  // (encapsulated in this plugin) hands over the bytes, and the body is parsed only once verified.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: PARTNER_CALLBACK_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    async function verifyThenParse(request: FastifyRequest<{ Params: { rail: string } }>): Promise<void> {
      if (!PARTNER_RAILS.includes(request.params.rail)) {
        throw apiError('NotFoundError', 'No partner callbacks for this rail.');
      }
      if (deps.secret === undefined) {
        throw apiError('ServiceUnavailable', 'Partner callbacks are not configured.', {
          headers: { 'retry-after': '60' },
        });
      }
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const check = verifyPartnerSignature({
        secret: deps.secret,
        header: request.headers[PARTNER_SIGNATURE_HEADER],
        rawBody,
        nowSeconds: Math.floor(now() / 1000),
      });
      if (!check.ok) {
        deps.logger.warn(
          { request_id: request.id, rail: request.params.rail, reason: check.reason },
          'partner callback refused: signature',
        );
        throw apiError(
          'AuthError',
          `Partner-Signature ${check.reason === 'missing' ? 'missing' : 'invalid'}.`,
        );
      }
      try {
        request.body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw apiError('ValidationError', 'The request body is not valid JSON.');
      }
    }

    scope.post<{ Params: { rail: string }; Body: PartnerPayoutResource }>(
      '/v1/partner/callbacks/:rail',
      { preValidation: verifyThenParse, schema: { body: PARTNER_CALLBACK_SCHEMA } },
      async (request) => {
        const { rail } = request.params;
        const payout = request.body;
        if (payout.rail !== undefined && payout.rail !== rail) {
          throw apiError(
            'ValidationError',
            `rail ${payout.rail} does not match the callback path (${rail}).`,
          );
        }
        // Only terminal statuses change anything; an intermediate one is acknowledged as is.
        if (payout.status === 'ACSC' || payout.status === 'RJCT') {
          await deps.payout.applyPartnerCallback({
            rail,
            transactionId: payout.idempotency_key,
            partnerPayoutId: payout.id,
            partnerStatus: payout.status,
            reasonCode: payout.reason_code ?? '',
            reason: payout.reason ?? '',
            reference: payout.reference ?? '',
            ...(payout.settled_at ? { settledAt: timestampFromDate(new Date(payout.settled_at)) } : {}),
          });
        }
        return { received: true, request_id: request.id };
      },
    );
  });
}
