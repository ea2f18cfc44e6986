import { checkTargetUrl } from '@qr-payout/platform/net';
import { TRANSACTION_EVENT_TYPES } from '@qr-payout/platform/vocabulary';
import type { RetryStrategy } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { requireTenantId, validationError } from '../validation';
import { type CustomHeader, checkCustomHeaders } from './custom-headers';
import { type RetryStrategyName, retryStrategyName } from './retry-strategy';

// Turns a CreateEndpoint request into a checked endpoint draft, or throws a ValidationError
// naming the first wrong field.

// docs/api/webhooks.md "The event"; "*" subscribes to all current and future types
// (docs/api/resources.md "Webhook endpoints").
export const ALL_EVENT_TYPES = '*';

/**
 * Whether an endpoint subscribed to `eventTypes` gets events of `eventType`
 * (docs/api/resources.md "Webhook endpoints").
 */
export function subscribesTo(eventTypes: readonly string[], eventType: string): boolean {
  return eventTypes.includes(ALL_EVENT_TYPES) || eventTypes.includes(eventType);
}

export type EndpointInput = {
  tenantId: string;
  url: string;
  eventTypes: readonly string[];
  headers: readonly CustomHeader[];
  retryStrategy: RetryStrategy;
};

export type EndpointDraft = {
  tenantId: string;
  url: string;
  eventTypes: string[];
  headers: CustomHeader[];
  retryStrategy: RetryStrategyName;
};

function checkEventTypes(eventTypes: readonly string[]): string[] {
  if (eventTypes.length === 0) return [ALL_EVENT_TYPES];
  if (eventTypes.includes(ALL_EVENT_TYPES)) {
    if (eventTypes.some((type) => type !== ALL_EVENT_TYPES)) {
      throw validationError('event_types', 'event_types must be ["*"] or a list of event types, not both');
    }
    return [ALL_EVENT_TYPES];
  }
  const unknown = eventTypes.find((type) => !(TRANSACTION_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw validationError(
      'event_types',
      `event_types must be among ${TRANSACTION_EVENT_TYPES.join(', ')} or "*"`,
    );
  }
  return [...new Set(eventTypes)];
}

export function checkEndpointInput(
  input: EndpointInput,
  opts: { allowPrivateTargets: boolean },
): EndpointDraft {
  const tenantId = requireTenantId(input.tenantId);
  const target = checkTargetUrl(input.url, opts);
  if (!target.ok) throw validationError('url', target.problem);
  const eventTypes = checkEventTypes(input.eventTypes);
  const headersProblem = checkCustomHeaders(input.headers);
  if (headersProblem) throw validationError(headersProblem.field, headersProblem.problem);
  const retryStrategy = retryStrategyName(input.retryStrategy);
  if (!retryStrategy) throw validationError('retry_strategy', 'retry_strategy must be standard or extended');
  return {
    tenantId,
    url: target.url,
    eventTypes,
    headers: input.headers.map(({ name, value }) => ({ name, value })),
    retryStrategy,
  };
}
