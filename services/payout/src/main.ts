// The payout process: `node main.js` serves until SIGTERM/SIGINT; `node main.js migrate` applies the
// migrations of schema payout, with EVENTS_TOPIC_PROVISION=true creates or checks the events topic
// (outbox/topic.ts), and exits (the chart's Job hook).
import { createKafkaBus } from '@qr-payout/platform/events';
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadPayoutConfig } from './config';
import { createDeps } from './deps';
import { provisionEventsTopic } from './outbox/topic';
import { startPayout } from './start';

runServiceMain({
  service: 'payout',
  loadConfig: loadPayoutConfig,
  start: (config) => startPayout(config),
  migrate: async (config, logger) => {
    const deps = createDeps(config);
    try {
      await deps.migrate();
    } finally {
      await deps.close();
    }
    if (!config.eventsTopicProvision) return;
    const bus = createKafkaBus({
      brokers: [...config.kafkaBrokers],
      connection: config.kafkaConnection,
      clientId: 'payout-migrate',
      logger,
    });
    try {
      await provisionEventsTopic(
        bus,
        {
          partitions: config.eventsTopicPartitions,
          replicationFactor: config.eventsTopicReplicationFactor,
          minInsyncReplicas: config.eventsTopicMinInsyncReplicas,
        },
        logger,
      );
    } finally {
      await bus.close();
    }
  },
});
