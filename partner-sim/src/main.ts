// Composition root of the partner simulator process: config, listen, shut down on SIGTERM.
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadPartnerSimConfig } from './config';
import { startPartnerSim } from './index';

runServiceMain({
  service: 'partner-sim',
  loadConfig: loadPartnerSimConfig,
  // startPartnerSim reads its env itself; the handle's close() is the shutdown step.
  start: async (_config, logger) => {
    const sim = await startPartnerSim(process.env, { logger });
    return { stop: () => sim.close() };
  },
});
