// Kafka as managed clusters offer it (docs/architecture.md "Kafka over TLS and
// SASL"): a broker whose listener is SASL_SSL only, with a certificate from a private CA. Payout's
// relay publishes with SCRAM-SHA-512 and webhook's dispatcher consumes with PLAIN, both verifying
// the broker against the CA given in KAFKA_TLS_CA_FILE; a pay's webhook arriving is the proof that
// the event crossed it. A wrong password and a client that does not trust the CA are refused.
import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig } from '@qr-payout/platform/config';
import { createKafkaBus, kafkaSettings, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import { type PrivateInfra, startPrivateInfra } from './faults/private-infra';
import { type System, startSystem } from './harness';
import { call } from './support/http';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(180_000);

let infra: PrivateInfra;
let system: System;
let webhooks: WebhookReceiver;

/** The environment a service gets to reach the SASL_SSL listener with `mechanism`. */
function secureEnv(mechanism: string, password = infra.kafkaSaslSsl!.password): NodeJS.ProcessEnv {
  const secure = infra.kafkaSaslSsl!;
  return {
    KAFKA_BROKERS: secure.brokers,
    KAFKA_TLS: 'true',
    KAFKA_TLS_CA_FILE: secure.caFile,
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: secure.username,
    KAFKA_SASL_PASSWORD: password,
  };
}

beforeAll(async () => {
  infra = await startPrivateInfra(() => undefined, { kafkaSaslSsl: true });
  webhooks = await startWebhookReceiver();
  system = await startSystem({
    // The harness creates the topic over the plaintext listener; the services use only SASL_SSL.
    infra: { databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, kafkaBrokers: infra.kafkaBrokers },
    serviceEnv: { payout: secureEnv('scram-sha-512'), webhook: secureEnv('plain') },
  });
}, 300_000);

afterAll(async () => {
  await system?.stop();
  await webhooks?.close();
  await infra?.stop();
}, 60_000);

test("a pay's event crosses a SASL_SSL-only listener: payout publishes with SCRAM-SHA-512, webhook consumes with PLAIN", async () => {
  const tenant = await system.createTenant(`e2e-kafka-tls-${randomBytes(4).toString('hex')}`);
  webhooks.setSecrets([tenant.signingSecret]);
  const paid = await call(system.gatewayUrl, '/v1/pay', {
    apiKey: tenant.apiKey,
    body: JSON.stringify({
      qr_string: PIX_WITHOUT_AMOUNT,
      amount: 12.5,
      callback_url: `${webhooks.url}/hook`,
      ...PAYER,
    }),
    contentType: 'application/json',
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(paid.status).toBe(200);
  const txnId = (paid.json!.transaction as { id: string }).id;
  await webhooks.waitFor((all) => all.some((r) => r.envelope.data?.transaction_id === txnId));
  const received = webhooks.received.find((r) => r.envelope.data?.transaction_id === txnId)!;
  expect(received.envelope.event_type).toBe('transaction.completed');
});

/** A publish through the SASL_SSL listener with the bus the services use, as `env` configures it. */
async function publishWith(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(kafkaSettings(), env);
  const bus = createKafkaBus({
    brokers: [...config.kafkaBrokers],
    connection: config.kafkaConnection,
    clientId: 'e2e-kafka-tls',
    logger: silentLogger(),
    kafka: { retry: { retries: 1, initialRetryTime: 100 }, connectionTimeout: 3_000 },
  });
  try {
    await bus.publish(TRANSACTION_EVENTS_TOPIC, [{ key: 'k', value: new Uint8Array([1]), headers: {} }], {
      timeoutMs: 10_000,
    });
  } finally {
    await bus.close();
  }
}

test('refuses a wrong password, and a broker certificate from a CA the client was not given', async () => {
  await expect(publishWith(secureEnv('scram-sha-256'))).resolves.toBeUndefined();
  await expect(publishWith(secureEnv('scram-sha-256', 'not-the-password'))).rejects.toThrow(
    /SASL SCRAM SHA256 authentication failed/,
  );
  const { KAFKA_TLS_CA_FILE: _ca, ...withoutCa } = secureEnv('plain');
  await expect(publishWith(withoutCa)).rejects.toThrow(
    /self[- ]signed certificate|unable to verify|certificate/i,
  );
});
