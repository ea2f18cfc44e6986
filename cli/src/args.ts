import { parseArgs } from 'node:util';

// Turns argv into one typed command (design §7). Pure: no I/O, so every rule is unit tested.

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';
const MAX_RATE_LIMIT = 1_000_000;

export type RetryName = 'standard' | 'extended';

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
  | { kind: 'secret rotate'; tenantId: string };

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
  'secret rotate': {
    usage: 'payoutctl secret rotate --tenant TENANT_ID',
    summary: "Replace a tenant's webhook signing secret (the new one is shown once).",
    options: { tenant: str },
    build: (v) => ({ kind: 'secret rotate', tenantId: requireString(v, 'tenant') }),
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
