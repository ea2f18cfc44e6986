import type { Client } from '@connectrpc/connect';
import { isRailName } from '@qr-payout/platform/partner-protocol';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { apiError } from '../../errors/api-error';
import { PARTNER_SIGNATURE_HEADER, verifyPartnerSignature } from '../../payments/partner-signature';

// Callbacks of the rails' partners (docs/architecture.md "Partner callbacks", "Rails and partners";
// docs/partner-callbacks.md): the partner POSTs its payout resource (docs/partner-protocol.md).
// Public port (partners call from outside), no x-api-key and no per-key rate limit: the signature
// is the authentication. The gateway verifies it and forwards the signed bytes as they came; payout
// parses them and interprets the status. The 2xx is sent only after payout has applied the
// callback, so a partner retries every callback we could not apply.

/** A payout resource is well under 2 KiB; anything much larger is not a callback. */
export const PARTNER_CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

export interface PartnerCallbackRouteDeps {
  payout: Pick<Client<typeof PayoutService>, 'applyPartnerCallback'>;
  /** PARTNER_CALLBACK_SECRET; undefined: callbacks are refused with 503 (not configured). */
  secret: string | undefined;
  logger: Logger;
  now?: () => number;
}

export function registerPartnerCallbackRoute(app: FastifyInstance, deps: PartnerCallbackRouteDeps): void {
  const now = deps.now ?? Date.now;

  // The signature covers the exact bytes, so this route keeps the raw body: its own JSON parser
  // (encapsulated in this plugin) hands over the bytes, which payout parses once verified.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: PARTNER_CALLBACK_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    async function verifySignature(request: FastifyRequest<{ Params: { rail: string } }>): Promise<void> {
      // Every rail's partner calls back (docs/partner-protocol.md): the protocol's one rail list.
      if (!isRailName(request.params.rail)) {
        throw apiError('NotFoundError', 'No partner callbacks for this rail.');
      }
      if (deps.secret === undefined) {
        throw apiError('ServiceUnavailable', 'Partner callbacks are not configured.', {
          headers: { 'retry-after': '60' },
        });
      }
      const check = verifyPartnerSignature({
        secret: deps.secret,
        header: request.headers[PARTNER_SIGNATURE_HEADER],
        rawBody: rawBodyOf(request),
        nowSeconds: Math.floor(now() / 1000),
      });
      if (!check.ok) {
        deps.logger.warn(
          { request_id: request.id, rail: request.params.rail, reason: check.reason },
          'partner callback refused: signature',
        );
        throw apiError(
          'AuthError',
          `Partner-Signature ${check.reason === 'missing_header' ? 'missing' : 'invalid'}.`,
        );
      }
    }

    scope.post<{ Params: { rail: string } }>(
      '/v1/partner/callbacks/:rail',
      { preValidation: verifySignature },
      async (request) => {
        // Every status goes to payout, which alone reads the resource and decides what it means
        // (a transient status records the partner's id; a terminal one settles).
        await deps.payout.applyPartnerCallback({ rail: request.params.rail, payload: rawBodyOf(request) });
        return { received: true, request_id: request.id };
      },
    );
  });
}

function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}
