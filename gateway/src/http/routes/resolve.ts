import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import {
  EXAMPLE_INSTRUCTION,
  EXAMPLE_INSTRUCTION_WITHOUT_FX,
  EXAMPLE_QR,
  EXAMPLE_RESOLVE_REQUEST,
} from '../../openapi/examples';
import { CONFIDENCE_DESCRIPTION, FX_DESCRIPTION } from '../../openapi/reference';
import { example, okResponse, withRequestId } from '../../openapi/responses';
import { type BodyOf, defineRoute, routeOptions } from '../../openapi/route';
import { type ResolveInstructionDeps, resolveInstruction } from '../../payments/resolve-instruction';
import { tenantIdOf } from '../auth';
import { dropNullFields } from '../null-as-absent';
import { toPublicInstruction } from '../presenters/instruction';
import { RESOLVE_REQUEST_SCHEMA, RESOLVE_RESPONSE_SCHEMA } from '../schemas';
import { BODY_ERRORS, QR_ROUTE_ERRORS } from './shared-responses';

export interface ResolveRouteDeps extends ResolveInstructionDeps {
  authenticate: onRequestAsyncHookHandler;
}

export const RESOLVE_ROUTE = defineRoute({
  method: 'POST',
  url: '/v1/resolve',
  schema: {
    operationId: 'resolve',
    tags: ['Payments'],
    summary: 'Resolve a QR code into a payment instruction',
    description:
      'Decodes the QR text and stores a payment instruction. With `wallet_currency` ' +
      'different from the payment currency, an FX quote is made and the instruction also carries ' +
      '`wallet_currency`, `wallet_amount` (what the user pays) and `quote`; with `wallet_currency` equal ' +
      'to the payment currency, `wallet_amount` equals `amount` and `quote` is null. Without ' +
      '`wallet_currency` the instruction has exactly the fields of `Instruction`. `amount` is only for QR codes ' +
      'that carry none (422 `AmountRequired` when missing for those, 422 `AmountMismatch` when it differs ' +
      "from the QR's); a positive amount outside the scheme's `min_amount`..`max_amount` (GET /v1/schemes) is 422 " +
      '`AmountOutOfRange`; zero or a negative amount, or one a JSON number cannot hold exactly, is 400 `ValidationError`. ' +
      'An optional field sent as null is taken as not sent. ' +
      'A `wallet_currency` that is malformed or not quoted (GET /v1/fx/currencies) is 400 `ValidationError`. ' +
      `\n\n${FX_DESCRIPTION}\n\nConfidence: ${CONFIDENCE_DESCRIPTION}`,
    body: RESOLVE_REQUEST_SCHEMA,
    bodyExamples: {
      ...example('wallet_currency_usd', '100.00 BRL paid from a USD wallet', EXAMPLE_RESOLVE_REQUEST),
      ...example('no_fx', 'In the payment currency', { qr_string: EXAMPLE_QR, amount: 100 }),
    },
    response: {
      '200': okResponse('The stored instruction.', RESOLVE_RESPONSE_SCHEMA, true, {
        ...example(
          'wallet_currency_usd',
          'Paid from a USD wallet: 100.00 BRL cost 18.45 USD',
          withRequestId('instruction', EXAMPLE_INSTRUCTION),
        ),
        ...example(
          'no_wallet_currency',
          'Without wallet_currency: the instruction fields only',
          withRequestId('instruction', EXAMPLE_INSTRUCTION_WITHOUT_FX),
        ),
      }),
      ...BODY_ERRORS,
      ...QR_ROUTE_ERRORS,
    },
  },
});

/**
 * POST /v1/resolve (docs/api/resources.md "Instructions (resolve)"): decode the QR text, quote FX
 * when the wallet currency differs from the payment currency
 * (docs/architecture.md "What the service does"), and store the instruction in payout
 * (payments/resolve-instruction.ts, shared with POST /v1/pay).
 */
export function registerResolveRoute(app: FastifyInstance, deps: ResolveRouteDeps): void {
  app.route<{ Body: BodyOf<typeof RESOLVE_ROUTE> }>({
    ...routeOptions(RESOLVE_ROUTE),
    onRequest: deps.authenticate,
    preHandler: dropNullFields,
    handler: async (request) => {
      const instruction = await resolveInstruction(deps, {
        tenantId: tenantIdOf(request),
        qrString: request.body.qr_string,
        walletCurrency: request.body.wallet_currency,
        amount: request.body.amount,
      });
      return {
        instruction: toPublicInstruction(instruction, {
          walletCurrencyRequested: request.body.wallet_currency !== undefined,
        }),
        request_id: request.id,
      };
    },
  });
}
