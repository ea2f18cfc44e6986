import { bool, type ConfigOf, type Env, int, loadConfig, oneOf, str, url } from '@qr-payout/platform/config';

// Every variable of the partner simulator (README "Config"). Fails fast naming each bad variable.
const shape = {
  port: int('PORT', { default: 4010, min: 0, max: 65535 }),
  host: str('HOST', { default: '0.0.0.0' }),
  // What payers are told to fetch (locations, jku). Unset: http://<HOST or 127.0.0.1>:<port>.
  publicUrl: url('PARTNER_SIM_PUBLIC_URL', { optional: true }),
  // PEM private key (EC P-256 → ES256, RSA → PS256); unset: a fresh P-256 key per start.
  signingKeyPem: str('PARTNER_SIM_SIGNING_KEY', { optional: true, secret: true }),
  // Payouts (docs/partner-protocol.md). The bearer key callers must send, and the secret that
  // signs callbacks: both well-known defaults, since the simulator guards no real money.
  apiKey: str('PARTNER_SIM_API_KEY', { default: 'sim_key', secret: true }),
  callbackSecret: str('PARTNER_SIM_CALLBACK_SECRET', { default: 'sim_callback_secret', secret: true }),
  settleMs: int('PARTNER_SIM_SETTLE_MS', { default: 150, min: 0, max: 600_000 }),
  slowSettleMs: int('PARTNER_SIM_SLOW_SETTLE_MS', { default: 20_000, min: 0, max: 3_600_000 }),
  // Append-only journal of payouts (README "Persistence"); unset: in memory, a restart forgets them.
  stateFile: str('PARTNER_SIM_STATE_FILE', { optional: true }),
  // POST/DELETE /_sim/faults exist only when true; GET /_sim/stats always does.
  faultsEnabled: bool('PARTNER_SIM_FAULTS', { default: false }),
  latencyMs: int('PARTNER_SIM_LATENCY_MS', { default: 0, min: 0, max: 60_000 }),
  callbackAttempts: int('PARTNER_SIM_CALLBACK_ATTEMPTS', { default: 5, min: 1, max: 20 }),
  callbackRetryMs: int('PARTNER_SIM_CALLBACK_RETRY_MS', { default: 500, min: 0, max: 600_000 }),
  callbackTimeoutMs: int('PARTNER_SIM_CALLBACK_TIMEOUT_MS', { default: 5_000, min: 1, max: 120_000 }),
  logLevel: oneOf('LOG_LEVEL', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
    default: 'info',
  }),
  shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 10_000, min: 0, max: 600_000 }),
};

export type PartnerSimConfig = ConfigOf<typeof shape>;

export function loadPartnerSimConfig(env: Env): PartnerSimConfig {
  return loadConfig(shape, env);
}
