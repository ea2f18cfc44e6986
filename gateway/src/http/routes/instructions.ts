import type { Client } from '@connectrpc/connect';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import { EXAMPLE_INSTRUCTION, EXAMPLE_INSTRUCTION_ID } from '../../openapi/examples';
import {
  describeTags,
  errorResponse,
  example,
  okResponse,
  RATE_LIMIT_HEADERS,
  withRequestId,
} from '../../openapi/responses';
import { defineRoute, type ParamsOf, routeOptions } from '../../openapi/route';
import { tenantIdOf } from '../auth';
import { isInstructionId } from '../ids';
import { toPublicInstruction } from '../presenters/instruction';
import { INSTRUCTION_RESPONSE_SCHEMA } from '../schemas';
import { AUTHENTICATED_ERRORS } from './shared-responses';

export interface InstructionsRouteDeps {
  payout: Pick<Client<typeof PayoutService>, 'getInstruction'>;
  authenticate: onRequestAsyncHookHandler;
}

export const GET_INSTRUCTION_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/instructions/:id',
  schema: {
    operationId: 'getInstruction',
    tags: ['Instructions'],
    summary: 'Read an instruction',
    description:
      'One of your instructions, as POST /v1/resolve showed it: the instruction fields, plus `wallet_currency`, ' +
      '`wallet_amount` and `quote` when an FX quote was made. An unknown id, a malformed one and another ' +
      "tenant's id are all 404 `NotFoundError`.",
    params: {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', examples: [EXAMPLE_INSTRUCTION_ID], description: 'Instruction id (`ins_`).' },
      },
    },
    response: {
      '200': okResponse(
        'The instruction.',
        INSTRUCTION_RESPONSE_SCHEMA,
        true,
        example(
          'wallet_currency_usd',
          'Resolved with a USD wallet',
          withRequestId('instruction', EXAMPLE_INSTRUCTION),
        ),
      ),
      '404': errorResponse(
        ['NotFoundError'],
        `${describeTags(['NotFoundError'])}: no such instruction for this key.`,
        RATE_LIMIT_HEADERS,
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * GET /v1/instructions/{id}: the tenant's instruction as resolve showed it (the wallet fields and
 * quote when FX applied); 404 for an unknown, malformed or another tenant's id alike.
 */
export function registerInstructionsRoute(app: FastifyInstance, deps: InstructionsRouteDeps): void {
  app.route<{ Params: ParamsOf<typeof GET_INSTRUCTION_ROUTE> }>({
    ...routeOptions(GET_INSTRUCTION_ROUTE),
    onRequest: deps.authenticate,
    handler: async (request) => {
      const { id } = request.params;
      if (!isInstructionId(id)) throw apiError('NotFoundError', 'instruction not found');
      const { instruction } = await deps.payout.getInstruction({
        tenantId: tenantIdOf(request),
        instructionId: id,
      });
      if (!instruction) throw new Error('payout returned no instruction');
      // Whether resolve was asked for wallet_currency is not stored; a quote says FX applied.
      return {
        instruction: toPublicInstruction(instruction, {
          walletCurrencyRequested: instruction.quote !== undefined,
        }),
        request_id: request.id,
      };
    },
  });
}
