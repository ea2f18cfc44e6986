import type { Logger } from '@qr-payout/platform/log';
import type { PartnerSimConfig } from '../config';
import { createFaults, type Faults } from './faults';
import { openPayoutJournal } from './journal';
import { createPayoutService, type PayoutService, type PayoutServiceOptions } from './service';
import { createSimStats, type SimStats } from './stats';

// Everything the payout routes and the /_sim routes share, built once per simulator.

export type PayoutDesk = {
  readonly service: PayoutService;
  readonly faults: Faults;
  readonly stats: SimStats;
  readonly apiKey: string;
  readonly latencyMs: number;
  readonly faultsEnabled: boolean;
};

export type PayoutDeskConfig = Pick<
  PartnerSimConfig,
  | 'apiKey'
  | 'callbackSecret'
  | 'settleMs'
  | 'slowSettleMs'
  | 'faultsEnabled'
  | 'latencyMs'
  | 'callbackAttempts'
  | 'callbackRetryMs'
  | 'callbackTimeoutMs'
  | 'stateFile'
>;

export function createPayoutDesk(
  config: PayoutDeskConfig,
  opts: {
    now: () => Date;
    logger: Logger;
    random?: () => number;
    onCompleted?: PayoutServiceOptions['onCompleted'];
  },
): PayoutDesk {
  const faults = createFaults({ random: opts.random });
  const stats = createSimStats();
  const service = createPayoutService({
    now: opts.now,
    logger: opts.logger,
    faults,
    stats,
    settleMs: config.settleMs,
    slowSettleMs: config.slowSettleMs,
    callbackSecret: config.callbackSecret,
    callbackAttempts: config.callbackAttempts,
    callbackRetryBaseMs: config.callbackRetryMs,
    callbackTimeoutMs: config.callbackTimeoutMs,
    ...(opts.onCompleted ? { onCompleted: opts.onCompleted } : {}),
    ...(config.stateFile ? { journal: openPayoutJournal(config.stateFile) } : {}),
  });
  return {
    service,
    faults,
    stats,
    apiKey: config.apiKey,
    latencyMs: config.latencyMs,
    faultsEnabled: config.faultsEnabled,
  };
}
