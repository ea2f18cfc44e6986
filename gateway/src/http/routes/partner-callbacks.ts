import type { Client } from '@connectrpc/connect';
import { isRailName, RAILS } from '@qr-payout/platform/partner-protocol';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { apiError } from '../../errors/api-error';
import { EXAMPLE_PARTNER_CALLBACK, EXAMPLE_REQUEST_ID } from '../../openapi/examples';
import { describeTags, errorResponse, example, okResponse, ref } from '../../openapi/responses';
import { defineRoute, routeOptions } from '../../openapi/route';
import { PARTNER_SIGNATURE_HEADER, verifyPartnerSignature } from '../../payments/partner-signature';
import { PARTNER_CALLBACK_RESPONSE_SCHEMA, PARTNER_CALLBACK_SCHEMA } from '../schemas';

// Callbacks of the rails' partners (docs/architecture.md "Partner callbacks", "Rails and partners";
// docs/partner-callbacks.md): the partner POSTs its payout resource (docs/partner-protocol.md).
// Public port (partners call from outside), no x-api-key and no per-key rate limit: the signature
// is the authentication. The gateway verifies it and forwards the signed bytes as they came; payout
// parses them and interprets the status. The 2xx is sent only after payout has applied the
// callback, so a partner retries every callback we could not apply.

/** A payout resource is well under 2 KiB; anything much larger is not a callback. */
export const PARTNER_CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

export const PARTNER_CALLBACK_ROUTE = defineRoute({
  method: 'POST',
  url: '/v1/partner/callbacks/:rail',
  schema: {
    operationId: 'partnerCallback',
    tags: ['Partners'],
    summary: "Partner callback (for the rails' partners, not for API clients)",
    description:
      'Where a rail partner reports the terminal state of a payout (docs/partner-callbacks.md). No API key: the ' +
      '`Partner-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`) authenticates ' +
      'it; a timestamp older than 5 minutes or more than 1 minute ahead is refused. The 200 is sent only after the ' +
      'transaction was updated, so any other status means: retry later.',
    security: [],
    params: {
      type: 'object',
      required: ['rail'],
      // Every rail's partner calls back: the partner protocol's one rail list.
      properties: { rail: { examples: ['pix'], type: 'string', enum: [...RAILS] } },
    },
    // Required, and checked by the route's own hook (a missing one is 401 AuthError, not a 400).
    headers: {
      type: 'object',
      required: ['Partner-Signature'],
      properties: {
        'Partner-Signature': {
          type: 'string',
          examples: [`t=1795003200,v1=${'0'.repeat(64)}`],
          description:
            '`t=<unix seconds>,v1=<hex digest>`; several v1 values are accepted during a secret rotation.',
        },
      },
    },
    body: PARTNER_CALLBACK_SCHEMA,
    bodyExamples: example('settled', 'A settled payout', EXAMPLE_PARTNER_CALLBACK),
    bodyCheckedByHandler: true,
    response: {
      '200': okResponse(
        'Applied (or a non-terminal status, acknowledged).',
        PARTNER_CALLBACK_RESPONSE_SCHEMA,
        false,
        example('received', 'Applied', { received: true, request_id: EXAMPLE_REQUEST_ID }),
      ),
      '400': errorResponse(
        ['ValidationError'],
        `${describeTags(['ValidationError'])}: the body is not a payout resource.`,
      ),
      '401': errorResponse(
        ['AuthError'],
        `${describeTags(['AuthError'])}: Partner-Signature missing, invalid or out of tolerance.`,
      ),
      '404': errorResponse(
        ['NotFoundError'],
        `${describeTags(['NotFoundError'])}: unknown rail or transaction.`,
      ),
      '413': errorResponse(['PayloadTooLarge'], `${describeTags(['PayloadTooLarge'])}: body over 16 KiB.`),
      '415': errorResponse(
        ['UnsupportedMediaType'],
        `${describeTags(['UnsupportedMediaType'])}: a body that is not JSON.`,
      ),
      '500': ref('responses', 'InternalError'),
      '503': ref('responses', 'ServiceUnavailable'),
    },
  },
});

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

    scope.route<{ Params: { rail: string } }>({
      ...routeOptions(PARTNER_CALLBACK_ROUTE),
      preValidation: verifySignature,
      handler: async (request) => {
        // Every status goes to payout, which alone reads the resource and decides what it means
        // (a transient status records the partner's id; a terminal one settles).
        await deps.payout.applyPartnerCallback({ rail: request.params.rail, payload: rawBodyOf(request) });
        return { received: true, request_id: request.id };
      },
    });
  });
}

function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}
