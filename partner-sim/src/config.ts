import { type ConfigOf, type Env, int, loadConfig, oneOf, str, url } from '@qr-payout/platform';

// Every variable of the partner simulator (README "Config"). Fails fast naming each bad variable.
const shape = {
  port: int('PORT', { default: 4010, min: 0, max: 65535 }),
  host: str('HOST', { default: '0.0.0.0' }),
  // What payers are told to fetch (locations, jku). Unset: http://<HOST or 127.0.0.1>:<port>.
  publicUrl: url('PARTNER_SIM_PUBLIC_URL', { optional: true }),
  // PEM private key (EC P-256 → ES256, RSA → PS256); unset: a fresh P-256 key per start.
  signingKeyPem: str('PARTNER_SIM_SIGNING_KEY', { optional: true, secret: true }),
  logLevel: oneOf('LOG_LEVEL', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
    default: 'info',
  }),
  shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 10_000, min: 0, max: 600_000 }),
};

export type PartnerSimConfig = ConfigOf<typeof shape>;

export function loadPartnerSimConfig(env: Env): PartnerSimConfig {
  return loadConfig(shape, env);
}
