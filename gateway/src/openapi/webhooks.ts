import { signSignatureHeader } from '@qr-payout/webhook-receiver/signature-scheme';
import {
  WEBHOOK_DELIVERY_DESCRIPTION,
  WEBHOOK_EVENT_HEADERS,
  WEBHOOK_EVENT_RESPONSES,
  type WebhookEventDefinition,
} from '../http/webhook-events';
import { parametersOf } from './paths';
import { example, jsonContent } from './responses';
import type { ParameterSchema } from './route';

// The OpenAPI `webhooks` generated from the event definitions (http/webhook-events.ts), as `paths`
// are from the routes: nothing here is written per event. components.ts then turns each payload
// into a `$ref` to its named schema.

/** Unix seconds of the example signature. */
const EXAMPLE_SIGNED_AT = 1795003200;

/**
 * The headers with the example event's values: its `Service-Signature` is the real signature of the
 * example body (JSON.stringify of the example) under the secret `whsec_example`, so a verifier can
 * be tried on it.
 */
function headersWithExamples(event: WebhookEventDefinition): ParameterSchema {
  const values: Record<string, string> = {
    'Service-Signature': signSignatureHeader(
      'whsec_example',
      JSON.stringify(event.example),
      EXAMPLE_SIGNED_AT,
    ),
    'x-event-id': event.example.event_id,
    'x-event-type': event.eventType,
  };
  const properties = Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_HEADERS.properties).map(([name, property]) => [
      name,
      { ...property, examples: [values[name]] },
    ]),
  );
  return { ...WEBHOOK_EVENT_HEADERS, properties };
}

/** The OpenAPI operation of an event: the POST a receiver gets. */
function webhookOperation(event: WebhookEventDefinition) {
  return {
    post: {
      operationId: `webhook_${event.eventType.replace(/\./g, '_')}`,
      tags: ['Webhook events'],
      summary: event.summary,
      description: `${event.description} ${WEBHOOK_DELIVERY_DESCRIPTION}`,
      security: [],
      parameters: parametersOf(headersWithExamples(event), 'header'),
      requestBody: {
        required: true,
        content: jsonContent(event.payload, example('event', event.summary, event.example)),
      },
      responses: WEBHOOK_EVENT_RESPONSES,
    },
  };
}

/** The `webhooks` of the events, in the definitions' order. */
export function webhooksOf(events: readonly WebhookEventDefinition[]) {
  return Object.fromEntries(events.map((event) => [event.eventType, webhookOperation(event)]));
}
