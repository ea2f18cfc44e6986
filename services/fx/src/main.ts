// Composition root of the fx process: `node main.js` serves, `node main.js migrate` applies the
// migrations of schema fx and exits (the chart's Job hook).
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadFxConfig } from './config';
import { createDeps } from './deps';
import { startFx } from './index';

runServiceMain({
  service: 'fx',
  loadConfig: loadFxConfig,
  start: (env) => startFx(env),
  migrate: async (env) => {
    const deps = createDeps(loadFxConfig(env));
    try {
      await deps.migrate();
    } finally {
      await deps.close();
    }
  },
});
