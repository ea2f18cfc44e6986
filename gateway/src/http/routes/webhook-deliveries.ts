import type { Client } from '@connectrpc/connect';
import { DeliveryStatus, type WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import { parseDeliveryListQuery } from '../delivery-list-query';
import { isWebhookDeliveryId } from '../ids';
import { registerJsonBodyParser } from '../json-body';
import { toPublicWebhookDelivery, toPublicWebhookDeliveryWithAttempts } from '../presenters/webhook-delivery';

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

  app.get('/v1/webhook-deliveries', { onRequest: authenticate }, async (request) => {
    const query = parseDeliveryListQuery(request.query);
    const res = await webhook.listDeliveries({
      tenantId: request.auth?.tenantId ?? '',
      transactionId: query.transactionId,
      status: query.status ?? DeliveryStatus.UNSPECIFIED,
      page: { limit: query.limit, cursor: query.cursor },
    });
    return {
      deliveries: res.deliveries.map(toPublicWebhookDelivery),
      next_cursor: res.pageInfo?.nextCursor || null,
      request_id: request.id,
    };
  });

  app.get<{ Params: { id: string } }>(
    '/v1/webhook-deliveries/:id',
    { onRequest: authenticate },
    async (request) => {
      const { delivery, attempts, earlierAttempts } = await webhook.getDelivery({
        tenantId: request.auth?.tenantId ?? '',
        deliveryId: deliveryIdOf(request.params.id),
      });
      if (!delivery) throw new Error('webhook returned no delivery');
      return {
        delivery: toPublicWebhookDeliveryWithAttempts(delivery, attempts, earlierAttempts),
        request_id: request.id,
      };
    },
  );

  // Its own scope, so only this route's JSON parser takes an empty body.
  app.register(async (scope) => {
    registerJsonBodyParser(scope, { allowEmpty: true });
    scope.post<{ Params: { id: string } }>(
      '/v1/webhook-deliveries/:id/replay',
      { onRequest: authenticate },
      async (request) => {
        checkReplayBody(request.body);
        const { delivery } = await webhook.replayDelivery({
          tenantId: request.auth?.tenantId ?? '',
          deliveryId: deliveryIdOf(request.params.id),
        });
        if (!delivery) throw new Error('webhook returned no delivery');
        return { delivery: toPublicWebhookDelivery(delivery), request_id: request.id };
      },
    );
  });
}
