import type { Client } from '@connectrpc/connect';
import { DeliveryStatus, type WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import {
  EXAMPLE_DELIVERY,
  EXAMPLE_DELIVERY_ID,
  EXAMPLE_DELIVERY_WITH_ATTEMPTS,
  EXAMPLE_REPLAYED_DELIVERY,
} from '../../openapi/examples';
import {
  describeTags,
  errorResponse,
  example,
  lastPageExample,
  okResponse,
  RATE_LIMIT_HEADERS,
  registryErrorResponse,
  withRequestId,
} from '../../openapi/responses';
import { defineRoute, type ParamsOf, type QueryOf, routeOptions } from '../../openapi/route';
import { tenantIdOf } from '../auth';
import {
  DELIVERY_LIST_QUERY_CHECKS,
  DELIVERY_LIST_QUERY_SCHEMA,
  listDeliveriesQuery,
} from '../delivery-list-query';
import { isWebhookDeliveryId } from '../ids';
import { registerJsonBodyParser } from '../json-body';
import { pageBody } from '../page-body';
import { toPublicWebhookDelivery, toPublicWebhookDeliveryWithAttempts } from '../presenters/webhook-delivery';
import {
  WEBHOOK_DELIVERIES_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA,
  WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_RESPONSE_SCHEMA,
} from '../schemas';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, QUERY_ERRORS, REPLAY_TOO_MANY } from './shared-responses';

export interface WebhookDeliveriesRouteDeps {
  webhook: Pick<Client<typeof WebhookService>, 'listDeliveries' | 'getDelivery' | 'replayDelivery'>;
  authenticate: onRequestAsyncHookHandler;
}

const NOT_FOUND_MESSAGE = 'webhook delivery not found';

/**
 * A malformed id cannot exist: the same 404 as an unknown one, without a call
 * (docs/api/errors.md "Error names", no probing).
 */
function deliveryIdOf(id: string): string {
  if (!isWebhookDeliveryId(id)) throw apiError('NotFoundError', NOT_FOUND_MESSAGE);
  return id;
}

/**
 * The replay takes no body (docs/api/webhooks.md "Webhook deliveries"). None, an empty one or `{}`
 * is accepted, so clients that always send JSON work; anything else is refused rather than silently
 * ignored.
 */
function checkReplayBody(body: unknown): void {
  // An empty body parses to undefined (json-body.ts); a JSON `null` is a body, and not {}.
  if (body === undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw apiError('ValidationError', 'The replay takes no body; send none or {}.');
  }
  const extra = Object.keys(body)[0];
  if (extra !== undefined) throw apiError('ValidationError', `${extra.slice(0, 64)} is not a known field`);
}

export const LIST_WEBHOOK_DELIVERIES_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/webhook-deliveries',
  schema: {
    operationId: 'listWebhookDeliveries',
    tags: ['Webhook deliveries'],
    summary: "List the tenant's webhook deliveries",
    description:
      'Your deliveries, newest first, optionally filtered by `transaction_id` and `status` (both may be ' +
      'combined), a page at a time: pass `next_cursor` back as `cursor` until it is null. An unknown ' +
      'query parameter, a `status` that is not a state, a `limit` that is not an integer from 1 to 100, a ' +
      '`transaction_id` that is not a transaction id or a `cursor` this API did not give are 400 `ValidationError` naming the parameter.',
    querystring: DELIVERY_LIST_QUERY_SCHEMA,
    querystringChecks: DELIVERY_LIST_QUERY_CHECKS,
    response: {
      '200': okResponse(
        'One page of deliveries.',
        WEBHOOK_DELIVERIES_RESPONSE_SCHEMA,
        true,
        lastPageExample('deliveries', EXAMPLE_DELIVERY),
      ),
      ...QUERY_ERRORS,
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/** The delivery id in the path of the routes of one delivery. */
export const DELIVERY_ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', examples: [EXAMPLE_DELIVERY_ID], description: 'Delivery id (`whd_`).' },
  },
} as const;

export const GET_WEBHOOK_DELIVERY_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/webhook-deliveries/:id',
  schema: {
    operationId: 'getWebhookDelivery',
    tags: ['Webhook deliveries'],
    summary: 'Read a webhook delivery with its attempts',
    description:
      'One of your deliveries and its `attempt_log`: every HTTP attempt, oldest first, across replays, with the ' +
      "status answered, the failure class and the first bytes of the answer. An unknown id and another tenant's " +
      'id are both 404 `NotFoundError`.',
    params: DELIVERY_ID_PARAMS,
    response: {
      '200': okResponse(
        'The delivery.',
        WEBHOOK_DELIVERY_RESPONSE_SCHEMA,
        true,
        example(
          'delivered',
          'Delivered at the first attempt',
          withRequestId('delivery', EXAMPLE_DELIVERY_WITH_ATTEMPTS),
        ),
      ),
      '404': errorResponse(
        ['NotFoundError'],
        `${describeTags(['NotFoundError'])}: no such delivery for this key.`,
        RATE_LIMIT_HEADERS,
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

export const REPLAY_WEBHOOK_DELIVERY_ROUTE = defineRoute({
  method: 'POST',
  url: '/v1/webhook-deliveries/:id/replay',
  schema: {
    operationId: 'replayWebhookDelivery',
    tags: ['Webhook deliveries'],
    summary: 'Send a webhook delivery again',
    description:
      'Re-enqueues a `delivered`, `failed` or `exhausted` delivery: it becomes `pending` with ' +
      '`attempts` 0 and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a ' +
      'fresh signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers ' +
      'deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`; a replay ' +
      'sooner than 10 seconds (the default) after the last replay of the same delivery is 429 ' +
      '`DeliveryReplayTooSoon` with Retry-After. No body is needed; an empty body or `{}` is accepted.',
    params: DELIVERY_ID_PARAMS,
    body: WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA,
    bodyExamples: example('empty', 'No fields', {}),
    bodyRequired: false,
    bodyCheckedByHandler: true,
    response: {
      '200': okResponse(
        'The delivery after the replay, `pending`.',
        WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA,
        true,
        example('pending', 'Re-enqueued', withRequestId('delivery', EXAMPLE_REPLAYED_DELIVERY)),
      ),
      '400': errorResponse(
        ['ValidationError'],
        `${describeTags(['ValidationError'])}: a body other than none or \`{}\`.`,
        RATE_LIMIT_HEADERS,
      ),
      '404': errorResponse(
        ['NotFoundError'],
        `${describeTags(['NotFoundError'])}: no such delivery for this key.`,
        RATE_LIMIT_HEADERS,
      ),
      '409': registryErrorResponse('DeliveryInFlight', RATE_LIMIT_HEADERS),
      '413': BODY_ERRORS['413'],
      '415': BODY_ERRORS['415'],
      ...AUTHENTICATED_ERRORS,
      ...REPLAY_TOO_MANY,
    },
  },
});

/**
 * GET /v1/webhook-deliveries (docs/api/webhooks.md "Webhook deliveries"), GET /v1/webhook-deliveries/{id} and
 * POST /v1/webhook-deliveries/{id}/replay (docs/api/webhooks.md "Webhook deliveries",
 * "Delivery states"), all scoped to the key's tenant: the webhook service answers NotFound for
 * another tenant's delivery and DeliveryInFlight (409) for a replay of a pending or delivering one.
 */
export function registerWebhookDeliveriesRoutes(
  app: FastifyInstance,
  deps: WebhookDeliveriesRouteDeps,
): void {
  const { webhook, authenticate } = deps;

  app.route<{ Querystring: QueryOf<typeof LIST_WEBHOOK_DELIVERIES_ROUTE> }>({
    ...routeOptions(LIST_WEBHOOK_DELIVERIES_ROUTE),
    onRequest: authenticate,
    handler: async (request) => {
      const query = listDeliveriesQuery(request.query);
      const res = await webhook.listDeliveries({
        tenantId: tenantIdOf(request),
        transactionId: query.transactionId,
        status: query.status ?? DeliveryStatus.UNSPECIFIED,
        page: { limit: query.limit, cursor: query.cursor },
      });
      return pageBody('deliveries', res.deliveries.map(toPublicWebhookDelivery), res.pageInfo, request.id);
    },
  });

  app.route<{ Params: ParamsOf<typeof GET_WEBHOOK_DELIVERY_ROUTE> }>({
    ...routeOptions(GET_WEBHOOK_DELIVERY_ROUTE),
    onRequest: authenticate,
    handler: async (request) => {
      const { delivery, attempts, earlierAttempts } = await webhook.getDelivery({
        tenantId: tenantIdOf(request),
        deliveryId: deliveryIdOf(request.params.id),
      });
      if (!delivery) throw new Error('webhook returned no delivery');
      return {
        delivery: toPublicWebhookDeliveryWithAttempts(delivery, attempts, earlierAttempts),
        request_id: request.id,
      };
    },
  });

  // Its own scope, so only this route's JSON parser takes an empty body.
  app.register(async (scope) => {
    registerJsonBodyParser(scope, { allowEmpty: true });
    scope.route<{ Params: ParamsOf<typeof REPLAY_WEBHOOK_DELIVERY_ROUTE> }>({
      ...routeOptions(REPLAY_WEBHOOK_DELIVERY_ROUTE),
      onRequest: authenticate,
      handler: async (request) => {
        checkReplayBody(request.body);
        const { delivery } = await webhook.replayDelivery({
          tenantId: tenantIdOf(request),
          deliveryId: deliveryIdOf(request.params.id),
        });
        if (!delivery) throw new Error('webhook returned no delivery');
        return { delivery: toPublicWebhookDelivery(delivery), request_id: request.id };
      },
    });
  });
}
