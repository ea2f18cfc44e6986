// Composition root of the payout process: `node main.js` serves, `node main.js migrate` applies the
// migrations of schema payout and exits (the chart's Job hook).
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadPayoutConfig } from './config';
import { createDeps } from './deps';
import { startPayout } from './index';

runServiceMain({
  service: 'payout',
  loadConfig: loadPayoutConfig,
  start: (env) => startPayout(env),
  migrate: async (env) => {
    const deps = createDeps(loadPayoutConfig(env));
    try {
      await deps.migrate();
    } finally {
      await deps.close();
    }
  },
});
