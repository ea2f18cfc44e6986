import type { Client } from '@connectrpc/connect';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

/** The part of the webhook service's gRPC client the admin API forwards to. */
export type WebhookAdminClient = Pick<
  Client<typeof WebhookService>,
  | 'rotateSigningSecret'
  | 'createEndpoint'
  | 'setEndpointEnabled'
  | 'listEndpoints'
  | 'listDeliveries'
  | 'getDelivery'
  | 'replayDelivery'
  | 'pingEndpoint'
>;

/** The part of the payout service's gRPC client the admin API forwards to. */
export type PayoutAdminClient = Pick<Client<typeof PayoutService>, 'listStuckTransactions'>;
