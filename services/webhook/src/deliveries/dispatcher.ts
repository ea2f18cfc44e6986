import diagnosticsChannel from 'node:diagnostics_channel';
import { fromBinary } from '@bufbuild/protobuf';
import {
  type BusMessage,
  type EventBus,
  type Subscription,
  TRANSACTION_EVENTS_TOPIC,
} from '@qr-payout/platform/events';
import { newId } from '@qr-payout/platform/ids';
import type { Logger } from '@qr-payout/platform/log';
import { type TransactionEvent, TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { subscribesTo } from '../endpoints/endpoint-draft';
import { deliveryTraceContextOf } from './attempt-span';
import type { TenantEndpointCache } from './endpoint-cache';
import { type EventBody, transactionEventBody } from './envelope';
import type * as store from './store';

// The dispatcher (docs/architecture.md "Services and what each owns", "The outbox and Kafka";
// services/webhook/README.md "Dispatcher"): a consumer group on the transaction-events topic. For
// each terminal event it writes, in one statement, one delivery per target: the tenant's enabled
// endpoints subscribed to the event type, and the transaction's callback_url. Deliveries are unique
// per event and target, and the bus commits the offset only after the handler returned, so a
// redelivered message creates nothing twice and none is lost.

export type Dispatcher = { stop(): Promise<void> };

/**
 * The node:diagnostics_channel the dispatcher publishes a DispatchedBatch on after a batch's
 * deliveries are committed and before its offsets are: an observer outside the service (a
 * profiler, test-e2e's kill -9 preload) sees that moment without a hook in this code.
 */
export const DISPATCHED_CHANNEL = 'qr-payout:webhook:dispatched';

export type DispatchedBatch = { events: number; deliveriesCreated: number };

type ReadEvent = {
  event: TransactionEvent;
  envelope: EventBody;
  /** The trace its deliveries' attempts join (docs/architecture.md "Traces"). */
  traceContext?: store.DeliveryTraceContext | null;
};

/** The event and its envelope, or undefined when the message cannot be read as one. */
function readEvent(message: BusMessage, logger: Logger): ReadEvent | undefined {
  try {
    const event = fromBinary(TransactionEventSchema, message.value);
    return {
      event,
      envelope: transactionEventBody(event),
      traceContext: deliveryTraceContextOf(message.traceContext),
    };
  } catch (err) {
    // A message no version of this code can read would block its partition forever: skip it, loudly.
    logger.error({ err, key: message.key, headers: message.headers }, 'skipping an unreadable event');
    return undefined;
  }
}

/**
 * Creates the deliveries of a batch of events in one statement; returns how many were new. Each
 * event goes to its tenant's enabled endpoints subscribed to its type (as `endpoints` knows them,
 * at most WEBHOOK_ENDPOINT_CACHE_MS old), and to its transaction's callback_url (the ad-hoc path
 * always receives the terminal event, docs/api/webhooks.md "The event").
 */
export async function dispatchTransactionEvents(
  deliveries: Pick<store.DeliveryStore, 'insertDeliveries'>,
  endpoints: TenantEndpointCache,
  events: ReadEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  const endpointsByTenant = await endpoints.get(events.map((e) => e.event.tenantId));
  const rows: store.NewDelivery[] = [];
  for (const { event, envelope, traceContext } of events) {
    const tenantEndpoints = endpointsByTenant.get(event.tenantId);
    if (!tenantEndpoints) continue;
    const targets: store.DeliveryTarget[] = tenantEndpoints.filter((endpoint) =>
      subscribesTo(endpoint.eventTypes, envelope.eventType),
    );
    const callbackUrl = event.transaction?.callbackUrl ?? '';
    if (callbackUrl !== '') targets.push({ endpointId: null, url: callbackUrl, retryStrategy: 'standard' });
    for (const target of targets) {
      rows.push({
        endpointId: target.endpointId,
        url: target.url,
        retryStrategy: target.retryStrategy,
        id: newId('whd'),
        tenantId: event.tenantId,
        eventId: envelope.eventId,
        eventType: envelope.eventType,
        transactionId: envelope.transactionId,
        payload: envelope.body,
        trigger: 'scheduled',
        traceContext,
      });
    }
  }
  return (await deliveries.insertDeliveries(rows)).length;
}

export async function startDispatcher(deps: {
  deliveries: store.DeliveryStore;
  bus: EventBus;
  logger: Logger;
  /** The tenants' endpoints, shared with the endpoint service, which invalidates what it changes. */
  endpoints: TenantEndpointCache;
  /** The Kafka consumer group (WEBHOOK_DISPATCHER_GROUP); replicas share one. */
  groupId: string;
  sessionTimeoutMs?: number;
  /** Called after new deliveries were committed (the worker claims them at once). */
  onDeliveries: () => void;
}): Promise<Dispatcher> {
  const { deliveries, bus, logger } = deps;
  const dispatched = diagnosticsChannel.channel(DISPATCHED_CHANNEL);
  const subscription: Subscription = await bus.subscribe({
    topic: TRANSACTION_EVENTS_TOPIC,
    groupId: deps.groupId,
    sessionTimeoutMs: deps.sessionTimeoutMs,
    // A batch of events is one read of endpoints, one insert and one offset commit.
    async handleBatch(messages) {
      const read = messages.flatMap((message) => readEvent(message, logger) ?? []);
      // A database error throws: the offsets are not committed and the bus delivers them again.
      const created = await dispatchTransactionEvents(deliveries, deps.endpoints, read);
      logger.debug(
        { events: read.map((r) => r.envelope.eventId), deliveries_created: created },
        'dispatched transaction events',
      );
      if (dispatched.hasSubscribers) {
        dispatched.publish({ events: read.length, deliveriesCreated: created } satisfies DispatchedBatch);
      }
      if (created > 0) deps.onDeliveries();
    },
  });
  return { stop: () => subscription.stop() };
}

/**
 * Runs the dispatcher in the background: subscribing connects to Kafka, and the service serves
 * meanwhile; a failure is logged and retried (1 s, doubling to 30 s) rather than crashing the API.
 * `stop()` does not wait for a connection still being made: closing the bus ends it, and a late
 * subscription is stopped at once.
 */
export function runDispatcher(deps: Parameters<typeof startDispatcher>[0]): Dispatcher {
  let stopped = false;
  let dispatcher: Dispatcher | undefined;
  const subscribe = (delayMs: number): void => {
    startDispatcher(deps).then(
      (started) => {
        dispatcher = started;
        if (stopped) void started.stop().catch(() => undefined);
      },
      (err: unknown) => {
        if (stopped) return;
        deps.logger.error({ err }, 'webhook dispatcher could not subscribe; retrying');
        setTimeout(() => {
          if (!stopped) subscribe(Math.min(delayMs * 2, 30_000));
        }, delayMs).unref();
      },
    );
  };
  subscribe(1_000);
  return {
    async stop() {
      stopped = true;
      await dispatcher?.stop();
    },
  };
}
