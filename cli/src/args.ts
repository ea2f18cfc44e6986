import { parseArgs } from 'node:util';

// Turns argv into one typed command (design §7). Pure: no I/O, so every rule is unit tested.

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';
const MAX_RATE_LIMIT = 1_000_000;

export type RetryName = 'standard' | 'extended';

/** Webhook delivery states (spec §3.2), as the public API names them. */
export const DELIVERY_STATUS_NAMES = ['pending', 'delivering', 'delivered', 'failed', 'exhausted'] as const;
export type DeliveryStatusName = (typeof DELIVERY_STATUS_NAMES)[number];

export type Command =
  | { kind: 'tenant create'; name: string; rateLimitPerMinute: number }
  | { kind: 'tenant list' }
  | { kind: 'tenant update'; tenantId: string; rateLimitPerMinute: number }
  | { kind: 'key create'; tenantId: string }
  | { kind: 'key revoke'; keyPrefix: string }
  | { kind: 'key list'; tenantId: string }
  | {
      kind: 'endpoint create';
      tenantId: string;
      url: string;
      eventTypes: string[];
      headers: { name: string; value: string }[];
      retry: RetryName;
    }
  | { kind: 'endpoint enable'; endpointId: string }
  | { kind: 'endpoint disable'; endpointId: string }
  | { kind: 'endpoint list'; tenantId: string }
  | { kind: 'endpoint ping'; endpointId: string }
  | { kind: 'secret rotate'; tenantId: string; gracePeriodSeconds: number | undefined }
  | {
      kind: 'delivery list';
      tenantId: string;
      transactionId: string;
      status: DeliveryStatusName | undefined;
      /** 0: the service's default page size. */
      limit: number;
      cursor: string;
    }
  | { kind: 'delivery show'; deliveryId: string }
  | { kind: 'delivery replay'; deliveryId: string }
  /** tenantId '' for every tenant; limit 0 for payout's default (100). */
  | { kind: 'transactions stuck'; tenantId: string; limit: number };

export interface Connection {
  adminUrl: string;
  token: string;
}

export type Parsed =
  | { type: 'run'; command: Command; connection: Connection }
  | { type: 'help'; text: string };

/** A mistake in how payoutctl was called: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean };
type Options = Record<string, OptionSpec>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface CommandSpec {
  usage: string;
  summary: string;
  options: Options;
  /** Names of positional arguments, in order. */
  positionals?: string[];
  build(values: Values, positionals: string[]): Command;
}

const GLOBAL_HELP = `Global options:
  --admin-url URL   admin API address (env PAYOUT_ADMIN_URL, default ${DEFAULT_ADMIN_URL})
  --token TOKEN     operator token (env PAYOUT_ADMIN_TOKEN; prefer the env var: flags show in ps)
  --help            this help`;

const str = { type: 'string' } as const;

function requireString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function rateLimit(values: Values, required: boolean): number {
  const raw = values['rate-limit'];
  if (raw === undefined) {
    if (required) throw new UsageError('--rate-limit is required (0 for the default)');
    return 0;
  }
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || Number(raw) > MAX_RATE_LIMIT) {
    throw new UsageError(`--rate-limit must be an integer from 0 (the default) to ${MAX_RATE_LIMIT}`);
  }
  return Number(raw);
}

/** `--header 'Name: value'`, split at the first colon. */
export function parseHeader(raw: string): { name: string; value: string } {
  const colon = raw.indexOf(':');
  const name = colon < 0 ? '' : raw.slice(0, colon).trim();
  if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UsageError(`--header must look like 'Name: value' (got a header without a valid name)`);
  }
  return { name, value: raw.slice(colon + 1).trim() };
}

/** `--events '*'` or `--events a,b` (repeatable); none means every event. */
export function parseEvents(raw: string[]): string[] {
  const events = raw
    .flatMap((r) => r.split(','))
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (events.includes('*') && events.length > 1) {
    throw new UsageError(`--events takes '*' alone or a list of event types`);
  }
  return events.length === 0 ? ['*'] : [...new Set(events)];
}

function strings(values: Values, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function endpointId(positionals: string[]): string {
  const id = positionals[0];
  if (!id) throw new UsageError('the endpoint id is required');
  return id;
}

function deliveryId(positionals: string[]): string {
  const id = positionals[0];
  if (!id) throw new UsageError('the delivery id is required');
  return id;
}

function optionalString(values: Values, name: string): string {
  const value = values[name];
  return typeof value === 'string' ? value.trim() : '';
}

const INT32_MAX = 2_147_483_647;
const UINT32_MAX = 4_294_967_295;

/** `--limit N`: a positive integer; the range (1 to `max`) is the called service's rule. */
function pageLimit(values: Values, max = 100): number {
  const raw = values['limit'];
  if (raw === undefined) return 0;
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw.trim()) || Number(raw) === 0) {
    throw new UsageError(`--limit must be a positive integer (at most ${max})`);
  }
  return Math.min(Number(raw), INT32_MAX);
}

function deliveryStatus(values: Values): DeliveryStatusName | undefined {
  const raw = values['status'];
  if (raw === undefined) return undefined;
  const name = String(raw).trim();
  if (!(DELIVERY_STATUS_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`--status must be one of ${DELIVERY_STATUS_NAMES.join(', ')}`);
  }
  return name as DeliveryStatusName;
}

const DURATION_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * `--grace 86400`, `30s`, `15m`, `24h`, `7d` → seconds. The maximum (7 days) is the webhook
 * service's rule; a value beyond what the field holds is sent as the field's maximum, so the
 * service's own error names it.
 */
export function parseDuration(raw: string): number {
  const match = /^([0-9]+)([smhd]?)$/.exec(raw.trim());
  if (!match) {
    throw new UsageError('--grace must be a duration: seconds, or a number with s, m, h or d (24h, 7d)');
  }
  return Math.min(Number(match[1]) * (DURATION_UNITS[match[2] ?? ''] ?? 1), UINT32_MAX);
}

const COMMANDS: Record<string, CommandSpec> = {
  'tenant create': {
    usage: 'payoutctl tenant create --name NAME [--rate-limit N]',
    summary: 'Create a tenant with its first API key and signing secret (both shown once).',
    options: { name: str, 'rate-limit': str },
    build: (v) => ({
      kind: 'tenant create',
      name: requireString(v, 'name'),
      rateLimitPerMinute: rateLimit(v, false),
    }),
  },
  'tenant list': {
    usage: 'payoutctl tenant list',
    summary: 'List tenants.',
    options: {},
    build: () => ({ kind: 'tenant list' }),
  },
  'tenant update': {
    usage: 'payoutctl tenant update --tenant TENANT_ID --rate-limit N',
    summary: "Change a tenant's rate limit per key and minute (0: back to the default).",
    options: { tenant: str, 'rate-limit': str },
    build: (v) => ({
      kind: 'tenant update',
      tenantId: requireString(v, 'tenant'),
      rateLimitPerMinute: rateLimit(v, true),
    }),
  },
  'key create': {
    usage: 'payoutctl key create --tenant TENANT_ID',
    summary: 'Create another API key for a tenant (shown once).',
    options: { tenant: str },
    build: (v) => ({ kind: 'key create', tenantId: requireString(v, 'tenant') }),
  },
  'key revoke': {
    usage: 'payoutctl key revoke --key-prefix PREFIX',
    summary: 'Revoke an API key by its public prefix (takes effect within the auth cache TTL, 10 s).',
    options: { 'key-prefix': str },
    build: (v) => ({ kind: 'key revoke', keyPrefix: requireString(v, 'key-prefix') }),
  },
  'key list': {
    usage: 'payoutctl key list --tenant TENANT_ID',
    summary: "List a tenant's API keys (prefixes only).",
    options: { tenant: str },
    build: (v) => ({ kind: 'key list', tenantId: requireString(v, 'tenant') }),
  },
  'endpoint create': {
    usage:
      "payoutctl endpoint create --tenant TENANT_ID --url URL [--events '*' | --events a,b] [--header 'Name: value']... [--retry standard|extended]",
    summary: 'Register a webhook endpoint. Header values are write-only.',
    options: {
      tenant: str,
      url: str,
      events: { type: 'string', multiple: true },
      header: { type: 'string', multiple: true },
      retry: str,
    },
    build: (v) => {
      const retry = v['retry'] ?? 'standard';
      if (retry !== 'standard' && retry !== 'extended') {
        throw new UsageError('--retry must be standard or extended');
      }
      return {
        kind: 'endpoint create',
        tenantId: requireString(v, 'tenant'),
        url: requireString(v, 'url'),
        eventTypes: parseEvents(strings(v, 'events')),
        headers: strings(v, 'header').map(parseHeader),
        retry,
      };
    },
  },
  'endpoint enable': {
    usage: 'payoutctl endpoint enable ENDPOINT_ID',
    summary: 'Enable a webhook endpoint (for example after auto-disable).',
    options: {},
    positionals: ['ENDPOINT_ID'],
    build: (_v, p) => ({ kind: 'endpoint enable', endpointId: endpointId(p) }),
  },
  'endpoint disable': {
    usage: 'payoutctl endpoint disable ENDPOINT_ID',
    summary: 'Disable a webhook endpoint.',
    options: {},
    positionals: ['ENDPOINT_ID'],
    build: (_v, p) => ({ kind: 'endpoint disable', endpointId: endpointId(p) }),
  },
  'endpoint list': {
    usage: 'payoutctl endpoint list --tenant TENANT_ID',
    summary: "List a tenant's webhook endpoints (header names only).",
    options: { tenant: str },
    build: (v) => ({ kind: 'endpoint list', tenantId: requireString(v, 'tenant') }),
  },
  'endpoint ping': {
    usage: 'payoutctl endpoint ping ENDPOINT_ID',
    summary:
      'Queue a signed test event (webhook.ping) to an endpoint; prints the delivery (follow it with delivery show).',
    options: {},
    positionals: ['ENDPOINT_ID'],
    build: (_v, p) => ({ kind: 'endpoint ping', endpointId: endpointId(p) }),
  },
  'secret rotate': {
    usage: 'payoutctl secret rotate --tenant TENANT_ID [--grace DURATION]',
    summary:
      "Replace a tenant's webhook signing secret (the new one is shown once). The previous one keeps signing beside it for the grace period: seconds or 30s, 15m, 24h, 7d (default 24h, at most 7d, 0 ends it at once).",
    options: { tenant: str, grace: str },
    build: (v) => {
      const grace = v['grace'];
      return {
        kind: 'secret rotate',
        tenantId: requireString(v, 'tenant'),
        gracePeriodSeconds: grace === undefined ? undefined : parseDuration(String(grace)),
      };
    },
  },
  'delivery list': {
    usage:
      'payoutctl delivery list --tenant TENANT_ID [--transaction-id TXN_ID] [--status STATUS] [--limit N] [--cursor CURSOR]',
    summary: `List a tenant's webhook deliveries, newest first (STATUS: ${DELIVERY_STATUS_NAMES.join(', ')}; N: 1 to 100, default 20); pass next_cursor as --cursor for the next page.`,
    options: { tenant: str, 'transaction-id': str, status: str, limit: str, cursor: str },
    build: (v) => ({
      kind: 'delivery list',
      tenantId: requireString(v, 'tenant'),
      transactionId: optionalString(v, 'transaction-id'),
      status: deliveryStatus(v),
      limit: pageLimit(v),
      cursor: optionalString(v, 'cursor'),
    }),
  },
  'delivery show': {
    usage: 'payoutctl delivery show DELIVERY_ID',
    summary: 'Show a webhook delivery of any tenant with its attempt log.',
    options: {},
    positionals: ['DELIVERY_ID'],
    build: (_v, p) => ({ kind: 'delivery show', deliveryId: deliveryId(p) }),
  },
  'delivery replay': {
    usage: 'payoutctl delivery replay DELIVERY_ID',
    summary:
      'Send a delivered, failed or exhausted webhook delivery again (same event_id); refused while pending or delivering.',
    options: {},
    positionals: ['DELIVERY_ID'],
    build: (_v, p) => ({ kind: 'delivery replay', deliveryId: deliveryId(p) }),
  },
  'transactions stuck': {
    usage: 'payoutctl transactions stuck [--tenant TENANT_ID] [--limit N]',
    summary:
      "List transactions still pending or processing past their rail's settlement horizon, oldest first, of every tenant or one (N: 1 to 500, default 100): id, tenant, status, rail, age, horizon, partner payout id, last poll.",
    options: { tenant: str, limit: str },
    build: (v) => ({
      kind: 'transactions stuck',
      tenantId: optionalString(v, 'tenant'),
      limit: pageLimit(v, 500),
    }),
  },
};

export function generalHelp(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `payoutctl: the QR Payout operator CLI. Prints JSON on stdout; errors as JSON on stderr.\n\nCommands:\n${lines.join('\n')}\n\n${GLOBAL_HELP}\n\nExit codes: 0 ok, 1 the call failed, 2 usage error.\n`;
}

function commandHelp(spec: CommandSpec): string {
  return `${spec.summary}\n\nUsage: ${spec.usage}\n\n${GLOBAL_HELP}\n`;
}

const GLOBAL_OPTIONS: Options = { 'admin-url': str, token: str, help: { type: 'boolean' } };

/** Parses argv (without node and script) with the environment's defaults. Throws UsageError. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): Parsed {
  const [group, action] = argv;
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
    return { type: 'help', text: generalHelp() };
  }
  const spec = COMMANDS[`${group} ${action ?? ''}`];
  if (!spec) {
    const groupKnown = Object.keys(COMMANDS).some((k) => k.startsWith(`${group} `));
    if (groupKnown && (action === undefined || action === '--help' || action === '-h')) {
      return { type: 'help', text: generalHelp() };
    }
    throw new UsageError(
      `unknown command: ${[group, action].filter(Boolean).join(' ')} (see payoutctl --help)`,
    );
  }

  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv.slice(2),
      options: { ...GLOBAL_OPTIONS, ...spec.options },
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (err) {
    throw new UsageError(`${(err as Error).message} (see payoutctl ${group} ${action} --help)`);
  }
  if (parsed.values['help']) return { type: 'help', text: commandHelp(spec) };

  const allowed = spec.positionals?.length ?? 0;
  if (parsed.positionals.length > allowed) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[allowed]}`);
  }
  const command = spec.build(parsed.values, parsed.positionals);

  const adminUrl =
    (parsed.values['admin-url'] as string | undefined) ?? env['PAYOUT_ADMIN_URL'] ?? DEFAULT_ADMIN_URL;
  if (!/^https?:\/\/[^\s/]+/.test(adminUrl)) throw new UsageError('--admin-url must be an http(s) URL');
  const token = (parsed.values['token'] as string | undefined) ?? env['PAYOUT_ADMIN_TOKEN'] ?? '';
  if (!token) throw new UsageError('no operator token: set PAYOUT_ADMIN_TOKEN or pass --token');
  return { type: 'run', command, connection: { adminUrl, token } };
}
