import type { AddressInfo } from 'node:net';
import type { Env } from '@qr-payout/platform/config';
import { closeHttpAgents } from '@qr-payout/platform/http';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import { loadPartnerSimConfig } from './config';
import { createPayoutDesk } from './payouts/desk';
import { createChargeStore } from './pix/charges';
import { assertLocationFits } from './pix/location';
import { concludePaidCharge } from './pix/paid-charges';
import { buildPartnerSimApp } from './server';
import { loadSigningKey, type SigningKey } from './signing/keys';

export { loadPartnerSimConfig } from './config';
export type { CallbackFault, FaultPlan, FaultRates, SubmitFault } from './payouts/faults';
export type { PayoutResource, PayoutStatus, Rail, ReasonCode, SubmitPayoutBody } from './payouts/protocol';
export { RAIL_CURRENCY, RAILS } from './payouts/protocol';
export { REFERENCE_PATTERNS } from './payouts/references';
export {
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  type SignatureCheck,
  signCallback,
  verifyCallbackSignature,
} from './payouts/signature';
export type { SimStatsView } from './payouts/stats';
export { buildDynamicBrCode } from './pix/brcode';
export type { SigningKey } from './signing/keys';

export type StartPartnerSimOverrides = {
  logger?: Logger;
  /** The simulator's clock (charge creation, `apresentacao`, payout times); tests move it. */
  now?: () => Date;
  /** The random source of fault rates (tests script it). */
  random?: () => number;
  /** Instead of PARTNER_SIM_SIGNING_KEY or a generated key. */
  signingKey?: SigningKey;
};

export type RunningPartnerSim = {
  readonly port: number;
  /** What payers are told to fetch: PARTNER_SIM_PUBLIC_URL, or http://<host>:<port>. */
  readonly baseUrl: string;
  readonly signingKey: SigningKey;
  /** Stops taking connections and waits for in-flight requests. Idempotent. */
  close(): Promise<void>;
};

// Location ids are 32 hex characters (pix/charges.ts).
const LOCATION_ID_LENGTH = 32;

function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Loads config from `env` and listens on PORT (0 picks a free port). */
export async function startPartnerSim(
  env: Env,
  overrides: StartPartnerSimOverrides = {},
): Promise<RunningPartnerSim> {
  const config = loadPartnerSimConfig(env);
  const logger = overrides.logger ?? createLogger({ service: 'partner-sim', level: config.logLevel });
  const now = overrides.now ?? (() => new Date());
  const signingKey = overrides.signingKey ?? loadSigningKey(config.signingKeyPem);
  if (config.publicUrl) assertLocationFits(config.publicUrl, LOCATION_ID_LENGTH);

  let baseUrl = config.publicUrl ?? '';
  const charges = createChargeStore({ now });
  const app = buildPartnerSimApp({
    logger,
    now,
    signingKey,
    charges,
    publicUrl: () => baseUrl,
    payouts: createPayoutDesk(config, {
      now,
      logger,
      random: overrides.random,
      // A settled Pix payout of one of our own charges concludes it (pix/paid-charges.ts).
      onCompleted: (payout) => concludePaidCharge(charges, baseUrl, payout),
    }),
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Closing runs the payout desk's close, which releases the journal file (PARTNER_SIM_STATE_FILE).
    await app.close();
    throw err;
  }
  const port = (app.server.address() as AddressInfo).port;
  baseUrl ||= localUrl(config.host, port);
  try {
    assertLocationFits(baseUrl, LOCATION_ID_LENGTH);
  } catch (err) {
    await app.close();
    throw err;
  }
  logger.info(
    { port, base_url: baseUrl, alg: signingKey.alg, kid: signingKey.kid, faults: config.faultsEnabled },
    'partner-sim listening',
  );

  let closing: Promise<void> | undefined;
  return {
    port,
    baseUrl,
    signingKey,
    close() {
      // The callback sender's keep-alive sockets go with the server (made again if ever needed).
      closing ??= app.close().finally(closeHttpAgents);
      return closing;
    },
  };
}
