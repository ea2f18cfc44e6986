// The payout process: `node main.js` serves until SIGTERM/SIGINT; `node main.js migrate` applies the
// migrations of schema payout and exits (the chart's Job hook).
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadPayoutConfig } from './config';
import { createDeps } from './deps';
import { startPayout } from './start';

runServiceMain({
  service: 'payout',
  loadConfig: loadPayoutConfig,
  start: (config) => startPayout(config),
  migrate: async (config) => {
    const deps = createDeps(config);
    try {
      await deps.migrate();
    } finally {
      await deps.close();
    }
  },
});
