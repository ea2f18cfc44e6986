// Composition root of the partner simulator process: config, listen, shut down on SIGTERM.
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadPartnerSimConfig } from './config';
import { startPartnerSim } from './index';

runServiceMain({
  service: 'partner-sim',
  loadConfig: loadPartnerSimConfig,
  start: (env, logger) => startPartnerSim(env, { logger }),
});
