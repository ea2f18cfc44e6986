// The fx process: `node main.js` serves until SIGTERM/SIGINT; `node main.js migrate` applies the
// migrations of schema fx and exits (the chart's Job hook).
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadFxConfig } from './config';
import { createDeps } from './deps';
import { startFx } from './start';

runServiceMain({
  service: 'fx',
  loadConfig: loadFxConfig,
  start: (config) => startFx(config),
  migrate: async (config) => {
    const deps = createDeps(config);
    try {
      await deps.migrate();
    } finally {
      await deps.close();
    }
  },
});
