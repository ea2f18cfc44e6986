// @qr-payout/test-kit/partner-sim: the partner simulator in-process on a free port, with the
// credentials tests sign and verify with and settle times short enough for a test
// (partner-sim/README.md lists the variables).
import {
  type RunningPartnerSim,
  type StartPartnerSimOverrides,
  startPartnerSim,
} from '@qr-payout/partner-sim';
import { silentLogger } from '@qr-payout/platform/log';

/** The Bearer key the simulator accepts (PARTNER_SIM_API_KEY). */
export const SIM_API_KEY = 'test_api_key';
/** The secret its callbacks' Partner-Signature is made with (PARTNER_SIM_CALLBACK_SECRET). */
export const SIM_CALLBACK_SECRET = 'test_callback_secret';

/**
 * Starts the simulator on 127.0.0.1, port 0, silent: payouts settle after 50 ms (slow ones after
 * 600 ms), failed callbacks are retried after 50 ms. `env` adds or overrides variables.
 */
export function startTestPartnerSim(
  env: Record<string, string> = {},
  overrides: StartPartnerSimOverrides = {},
): Promise<RunningPartnerSim> {
  return startPartnerSim(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      PARTNER_SIM_API_KEY: SIM_API_KEY,
      PARTNER_SIM_CALLBACK_SECRET: SIM_CALLBACK_SECRET,
      PARTNER_SIM_SETTLE_MS: '50',
      PARTNER_SIM_SLOW_SETTLE_MS: '600',
      PARTNER_SIM_CALLBACK_RETRY_MS: '50',
      ...env,
    },
    { logger: silentLogger(), ...overrides },
  );
}
