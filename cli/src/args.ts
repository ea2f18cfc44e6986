import { parseArgs } from 'node:util';
import {
  DELIVERY_STATUSES,
  type DeliveryStatusName,
  RETRY_STRATEGIES,
  type RetryStrategyName,
  TRANSACTION_EVENT_TYPES,
  type TransactionEventType,
} from '@qr-payout/platform/vocabulary';

// Turns argv into one typed command (docs/architecture.md "Operators"). Pure: no I/O, so every rule
// is unit tested.

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';
/** The sandbox's public API (`npm start` prints it as the base URL). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
const MAX_RATE_LIMIT = 1_000_000;

// Retry strategies, delivery states and event types: the platform vocabulary's lists.
export type RetryName = RetryStrategyName;
export type { DeliveryStatusName };

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

/** A sandbox trigger (docs/api/sandbox.md "Triggers"): the public API, with a tenant's key. */
export interface TriggerCommand {
  kind: 'trigger';
  event: TransactionEventType;
  /** '' when not given. */
  callbackUrl: string;
  /** '' when not given: a new UUID per call (run.ts). */
  idempotencyKey: string;
}

/** The public API as a tenant calls it. */
export interface PublicConnection {
  baseUrl: string;
  apiKey: string;
}

export interface Connection {
  adminUrl: string;
  token: string;
}

export type Parsed =
  | { type: 'run'; command: Command; connection: Connection }
  | { type: 'trigger'; command: TriggerCommand; connection: PublicConnection }
  | { type: 'help'; text: string };

/** A mistake in how payoutctl was called: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/**
 * One flag, as the parser reads it and the help shows it: the help text is generated from this
 * table (`COMMANDS`), so what `--help` says is what the parser accepts.
 */
export interface OptionSpec {
  /** Placeholder of the value (`TENANT_ID`); absent for a flag without a value. */
  value?: string;
  /** What the flag means, with its syntax. */
  help: string;
  /** The parser refuses the command without it. */
  required?: boolean;
  /** The flag may be given more than once; its values add up. */
  multiple?: boolean;
  /** The only values accepted (checked by the parser). */
  choices?: readonly string[];
  /** What applies when the flag is left out. */
  default?: string;
  /** Environment variable read when the flag is left out. */
  env?: string;
}

export interface PositionalSpec {
  /** Placeholder (`ENDPOINT_ID`). */
  name: string;
  help: string;
}

export interface CommandSpec {
  /** One line: what the command does. */
  summary: string;
  /** More about it, when one line is not enough. */
  details?: string;
  options: Record<string, OptionSpec>;
  /** Required positional arguments, in order. */
  positionals?: PositionalSpec[];
  /** Full command lines, each one that the parser accepts (a unit test runs them). */
  examples: string[];
  /**
   * `public`: the command calls the public API with a tenant's API key (`--api-key`, `--base-url`)
   * instead of the admin API with the operator token.
   */
  api?: 'public';
  build(values: Values, positionals: string[]): Command | TriggerCommand;
}

function requireString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** `--rate-limit N`; left out (tenant create only: the table requires it elsewhere) is 0. */
function rateLimit(values: Values): number {
  const raw = values['rate-limit'];
  if (raw === undefined) return 0;
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

const TENANT: OptionSpec = { value: 'TENANT_ID', required: true, help: "the tenant's id (ten_…)" };
const ENDPOINT_ID: PositionalSpec = { name: 'ENDPOINT_ID', help: "the webhook endpoint's id (whe_…)" };
const DELIVERY_ID: PositionalSpec = { name: 'DELIVERY_ID', help: "the webhook delivery's id (whd_…)" };

const COMMANDS: Record<string, CommandSpec> = {
  'tenant create': {
    summary: 'Create a tenant with its first API key and webhook signing secret (both shown once).',
    options: {
      name: { value: 'NAME', required: true, help: 'display name of the tenant' },
      'rate-limit': {
        value: 'N',
        help: `requests per minute per API key, 0 to ${MAX_RATE_LIMIT}; 0 is the gateway's default`,
        default: "0 (the gateway's default, 100)",
      },
    },
    examples: ['payoutctl tenant create --name Acme', 'payoutctl tenant create --name Acme --rate-limit 600'],
    build: (v) => ({
      kind: 'tenant create',
      name: requireString(v, 'name'),
      rateLimitPerMinute: rateLimit(v),
    }),
  },
  'tenant list': {
    summary: 'List every tenant.',
    options: {},
    examples: ['payoutctl tenant list'],
    build: () => ({ kind: 'tenant list' }),
  },
  'tenant update': {
    summary: "Change a tenant's rate limit per API key and minute.",
    options: {
      tenant: TENANT,
      'rate-limit': {
        value: 'N',
        required: true,
        help: `requests per minute per API key, 0 to ${MAX_RATE_LIMIT}; 0 goes back to the gateway's default`,
      },
    },
    examples: ['payoutctl tenant update --tenant ten_01J0ACME --rate-limit 600'],
    build: (v) => ({
      kind: 'tenant update',
      tenantId: requireString(v, 'tenant'),
      rateLimitPerMinute: rateLimit(v),
    }),
  },
  'key create': {
    summary: 'Create another API key for a tenant (shown once).',
    options: { tenant: TENANT },
    examples: ['payoutctl key create --tenant ten_01J0ACME'],
    build: (v) => ({ kind: 'key create', tenantId: requireString(v, 'tenant') }),
  },
  'key revoke': {
    summary: 'Revoke an API key by its public prefix.',
    details:
      "Takes effect at once on the gateway replica that answers, on the others within the auth cache's 10 s.",
    options: {
      'key-prefix': {
        value: 'PREFIX',
        required: true,
        help: "the key's public prefix: its first 12 characters (qrp_ and 8 more), as key list shows it",
      },
    },
    examples: ['payoutctl key revoke --key-prefix qrp_AbCd1234'],
    build: (v) => ({ kind: 'key revoke', keyPrefix: requireString(v, 'key-prefix') }),
  },
  'key list': {
    summary: "List a tenant's API keys (prefixes only; a key is shown in clear only when created).",
    options: { tenant: TENANT },
    examples: ['payoutctl key list --tenant ten_01J0ACME'],
    build: (v) => ({ kind: 'key list', tenantId: requireString(v, 'tenant') }),
  },
  'endpoint create': {
    summary: "Register a webhook endpoint for a tenant's events.",
    details:
      'Header values are write-only: no command or API shows them again. The webhook service refuses more than 20 headers, more than 8 KiB of them, and reserved names: the headers it writes itself (Host, Content-Length, Content-Type, Service-Signature, X-Event-Id, X-Event-Type) and hop-by-hop ones (Connection, Transfer-Encoding, Proxy-* and the like; docs/api/webhooks.md "Custom headers").',
    options: {
      tenant: TENANT,
      url: {
        value: 'URL',
        required: true,
        help: 'the URL that receives the signed POSTs: https, and a host that is not localhost nor a loopback, private, link-local or metadata address; http and those hosts (http://127.0.0.1:9000/hook) only where the webhook service runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, as the sandbox does',
      },
      events: {
        value: 'TYPES',
        multiple: true,
        help: `event types to send, comma-separated or the flag repeated (${TRANSACTION_EVENT_TYPES.join(', ')}); '*' alone for every event type, current and future`,
        default: "'*'",
      },
      header: {
        value: "'NAME: VALUE'",
        multiple: true,
        help: 'a header sent with every attempt, split at the first colon; quote it for the shell; repeat the flag for each header',
      },
      retry: {
        value: 'STRATEGY',
        choices: RETRY_STRATEGIES,
        help: 'retry schedule: standard (16 attempts over about 5.7 days) or extended (17, about 6.2 days)',
        default: 'standard',
      },
    },
    examples: [
      'payoutctl endpoint create --tenant ten_01J0ACME --url https://merchant.example/webhooks',
      "payoutctl endpoint create --tenant ten_01J0ACME --url https://merchant.example/webhooks --events transaction.completed,transaction.failed --header 'Authorization: Bearer s3cr3t' --header 'X-Merchant-Key: k1' --retry extended",
    ],
    build: (v) => ({
      kind: 'endpoint create',
      tenantId: requireString(v, 'tenant'),
      url: requireString(v, 'url'),
      eventTypes: parseEvents(strings(v, 'events')),
      headers: strings(v, 'header').map(parseHeader),
      retry: (optionalString(v, 'retry') || 'standard') as RetryName,
    }),
  },
  'endpoint enable': {
    summary: 'Enable a webhook endpoint (for example after auto-disable).',
    options: {},
    positionals: [ENDPOINT_ID],
    examples: ['payoutctl endpoint enable whe_01J0HOOK'],
    build: (_v, p) => ({ kind: 'endpoint enable', endpointId: p[0] ?? '' }),
  },
  'endpoint disable': {
    summary: 'Disable a webhook endpoint: no new deliveries go to it until it is enabled.',
    options: {},
    positionals: [ENDPOINT_ID],
    examples: ['payoutctl endpoint disable whe_01J0HOOK'],
    build: (_v, p) => ({ kind: 'endpoint disable', endpointId: p[0] ?? '' }),
  },
  'endpoint list': {
    summary: "List a tenant's webhook endpoints (header names only, never their values).",
    options: { tenant: TENANT },
    examples: ['payoutctl endpoint list --tenant ten_01J0ACME'],
    build: (v) => ({ kind: 'endpoint list', tenantId: requireString(v, 'tenant') }),
  },
  'endpoint ping': {
    summary: 'Queue a signed test event (webhook.ping) to an endpoint and print its delivery.',
    details: 'Follow it with delivery show DELIVERY_ID; it is signed, retried and listed like any delivery.',
    options: {},
    positionals: [ENDPOINT_ID],
    examples: ['payoutctl endpoint ping whe_01J0HOOK'],
    build: (_v, p) => ({ kind: 'endpoint ping', endpointId: p[0] ?? '' }),
  },
  'secret rotate': {
    summary: "Replace a tenant's webhook signing secret (the new one is shown once).",
    details:
      "The previous secret keeps signing beside the new one for the grace period, so the tenant can switch without a failed verification. Rotating the sandbox's tenant (ten_sandbox) with the sandbox's operator token also writes the new secret to the sandbox's sandbox.json, so the next npm start prints it (SANDBOX_DATA_DIR, default .data, under the current directory).",
    options: {
      tenant: TENANT,
      grace: {
        value: 'DURATION',
        help: 'how long the previous secret keeps signing: seconds, or a number with s, m, h or d (30s, 15m, 24h, 7d); at most 7d; 0 ends it at once',
        default: '24h',
      },
    },
    examples: [
      'payoutctl secret rotate --tenant ten_01J0ACME',
      'payoutctl secret rotate --tenant ten_01J0ACME --grace 0',
      'payoutctl secret rotate --tenant ten_sandbox --grace 7d',
    ],
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
    summary: "List a tenant's webhook deliveries, newest first, a page at a time.",
    details:
      'Pass the next_cursor it prints as --cursor for the next page; next_cursor is null on the last one.',
    options: {
      tenant: TENANT,
      'transaction-id': { value: 'TXN_ID', help: "only this transaction's deliveries (txn_…)" },
      status: { value: 'STATUS', choices: DELIVERY_STATUSES, help: 'only deliveries in this state' },
      limit: { value: 'N', help: 'page size, 1 to 100', default: '20' },
      cursor: { value: 'CURSOR', help: 'next_cursor of the previous page' },
    },
    examples: [
      'payoutctl delivery list --tenant ten_01J0ACME',
      'payoutctl delivery list --tenant ten_01J0ACME --status exhausted --limit 50',
      'payoutctl delivery list --tenant ten_01J0ACME --transaction-id txn_01J0PAID',
    ],
    build: (v) => ({
      kind: 'delivery list',
      tenantId: requireString(v, 'tenant'),
      transactionId: optionalString(v, 'transaction-id'),
      status: (optionalString(v, 'status') || undefined) as DeliveryStatusName | undefined,
      limit: pageLimit(v),
      cursor: optionalString(v, 'cursor'),
    }),
  },
  'delivery show': {
    summary: 'Show a webhook delivery of any tenant with its attempt log.',
    options: {},
    positionals: [DELIVERY_ID],
    examples: ['payoutctl delivery show whd_01J0SENT'],
    build: (_v, p) => ({ kind: 'delivery show', deliveryId: p[0] ?? '' }),
  },
  'delivery replay': {
    summary: 'Send a delivered, failed or exhausted webhook delivery again (same event_id).',
    details: 'Refused while the delivery is pending or delivering. Receivers deduplicate on event_id.',
    options: {},
    positionals: [DELIVERY_ID],
    examples: ['payoutctl delivery replay whd_01J0SENT'],
    build: (_v, p) => ({ kind: 'delivery replay', deliveryId: p[0] ?? '' }),
  },
  'transactions stuck': {
    summary:
      "List transactions still pending or processing past their rail's settlement horizon, oldest first.",
    options: {
      tenant: { value: 'TENANT_ID', help: "only this tenant's transactions", default: 'every tenant' },
      limit: { value: 'N', help: 'at most N transactions, 1 to 500', default: '100' },
    },
    examples: [
      'payoutctl transactions stuck',
      'payoutctl transactions stuck --tenant ten_01J0ACME --limit 10',
    ],
    build: (v) => ({
      kind: 'transactions stuck',
      tenantId: optionalString(v, 'tenant'),
      limit: pageLimit(v, 500),
    }),
  },
};

/** `payoutctl trigger EVENT`, one per transaction event type (docs/api/sandbox.md "Triggers"). */
function triggerSpec(event: TransactionEventType): CommandSpec {
  return {
    summary: `Sandbox only: make a real ${event.split('.')[1]} transaction of the key's tenant and its ${event} webhook.`,
    details:
      "Calls the public API's POST /v1/sandbox/triggers with the tenant's API key (the transaction is that tenant's), not the admin API: it pays a sandbox test QR through the normal pay path and prints {transaction}, already terminal. The event goes to the tenant's registered endpoints and to --callback-url. A gateway that is not the sandbox answers 403 SandboxOnly.",
    api: 'public',
    options: {
      'api-key': {
        value: 'KEY',
        env: 'QR_PAYOUT_API_KEY',
        help: "the tenant's API key (the sandbox prints it); prefer the env variable (flags show in ps)",
      },
      'base-url': {
        value: 'URL',
        env: 'QR_PAYOUT_BASE_URL',
        help: 'the public API',
        default: DEFAULT_BASE_URL,
      },
      'callback-url': { value: 'URL', help: 'also send the event there (the callback_url of a pay)' },
      'idempotency-key': {
        value: 'KEY',
        help: 'the Idempotency-Key; the same key again answers the same transaction',
        default: 'a new UUID per call',
      },
    },
    examples: [
      `payoutctl trigger ${event}`,
      `payoutctl trigger ${event} --callback-url http://127.0.0.1:9000/hook --idempotency-key try-1`,
    ],
    build: (v) => ({
      kind: 'trigger',
      event,
      callbackUrl: optionalString(v, 'callback-url'),
      idempotencyKey: optionalString(v, 'idempotency-key'),
    }),
  };
}

for (const event of TRANSACTION_EVENT_TYPES) COMMANDS[`trigger ${event}`] = triggerSpec(event);

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  'admin-url': {
    value: 'URL',
    env: 'PAYOUT_ADMIN_URL',
    help: "the gateway's admin API",
    default: DEFAULT_ADMIN_URL,
  },
  token: {
    value: 'TOKEN',
    env: 'PAYOUT_ADMIN_TOKEN',
    help: 'operator token; prefer the env variable (flags show in ps)',
  },
  help: { help: 'this help (also -h, or payoutctl help COMMAND)' },
};

/** The table itself, read-only: the tests check the help against it. */
export function commandTable(): Readonly<Record<string, CommandSpec>> {
  return COMMANDS;
}

const HELP_WIDTH = 100;

function wrap(text: string, indent: number, firstColumn = indent): string[] {
  const lines: string[] = [];
  let line = '';
  let width = HELP_WIDTH - firstColumn;
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
      width = HELP_WIDTH - indent;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function flagSyntax(name: string, spec: OptionSpec): string {
  return spec.value ? `--${name} ${spec.value}` : `--${name}`;
}

/** `payoutctl endpoint create --tenant TENANT_ID --url URL [--events TYPES]...` from the table. */
export function usageLine(name: string, spec: CommandSpec): string {
  const parts = [`payoutctl ${name}`, ...(spec.positionals ?? []).map((p) => p.name)];
  for (const [flag, option] of Object.entries(spec.options)) {
    const syntax = flagSyntax(flag, option);
    parts.push(`${option.required ? syntax : `[${syntax}]`}${option.multiple ? '...' : ''}`);
  }
  return parts.join(' ');
}

/** The meaning line of a flag: its help, then what is required, accepted, repeatable, defaulted. */
function optionMeaning(spec: OptionSpec): string {
  const notes = [
    spec.required ? 'required' : '',
    spec.choices ? `one of ${spec.choices.join(', ')}` : '',
    spec.multiple ? 'repeatable' : '',
    spec.env ? `env ${spec.env}` : '',
    spec.default !== undefined ? `default: ${spec.default}` : '',
  ].filter(Boolean);
  return notes.length ? `${spec.help} (${notes.join('; ')})` : spec.help;
}

function table(rows: [string, string][]): string[] {
  const column = Math.min(Math.max(...rows.map(([left]) => left.length)) + 4, 34);
  return rows.flatMap(([left, right]) => {
    const [first = '', ...more] = wrap(right, column, Math.max(column, left.length + 4));
    const head = `  ${left.padEnd(column - 2)}`;
    const pad = left.length + 4 > column ? ' ' : '';
    return [`${head}${pad}${first}`, ...more.map((m) => `${' '.repeat(column)}${m}`)];
  });
}

function globalHelp(): string {
  return `Global options:\n${table(
    Object.entries(GLOBAL_OPTIONS).map(([name, o]) => [flagSyntax(name, o), optionMeaning(o)]),
  ).join('\n')}`;
}

const EXIT_CODES = 'Exit codes: 0 ok, 1 the call failed (error JSON on stderr), 2 usage error.';

function groups(): Map<string, string[]> {
  const byGroup = new Map<string, string[]>();
  for (const name of Object.keys(COMMANDS)) {
    const group = name.split(' ')[0] ?? name;
    byGroup.set(group, [...(byGroup.get(group) ?? []), name]);
  }
  return byGroup;
}

function commandList(names: string[]): string {
  return names
    .map((name) => {
      const spec = COMMANDS[name] as CommandSpec;
      return [`  ${usageLine(name, spec)}`, ...wrap(spec.summary, 6).map((l) => `      ${l}`)].join('\n');
    })
    .join('\n');
}

export function generalHelp(): string {
  return [
    'payoutctl: the QR Payout operator CLI, a client of the gateway admin API (trigger: of the public API, sandbox only).',
    'Prints the JSON of the API on stdout; errors as JSON on stderr.',
    '',
    'Usage: payoutctl COMMAND SUBCOMMAND [ARGUMENTS] [OPTIONS]',
    '       payoutctl COMMAND SUBCOMMAND --help    flags, defaults and examples of one subcommand',
    '',
    'Commands:',
    commandList(Object.keys(COMMANDS)),
    '',
    globalHelp(),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export function groupHelp(group: string): string {
  const names = groups().get(group) ?? [];
  return [
    `payoutctl ${group}: ${names.map((n) => n.split(' ')[1]).join(', ')}.`,
    '',
    'Subcommands:',
    commandList(names),
    '',
    `Run payoutctl ${group} SUBCOMMAND --help for its flags, defaults and examples.`,
    '',
    globalHelp(),
    '',
  ].join('\n');
}

export function commandHelp(name: string): string {
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(`unknown command: ${name} (see payoutctl --help)`);
  const sections = [`payoutctl ${name}: ${spec.summary}`];
  if (spec.details) sections.push(wrap(spec.details, 0).join('\n'));
  sections.push(`Usage:\n  ${usageLine(name, spec)}`);
  if (spec.positionals?.length) {
    sections.push(`Arguments:\n${table(spec.positionals.map((p) => [p.name, p.help])).join('\n')}`);
  }
  const options = Object.entries(spec.options);
  if (options.length) {
    sections.push(
      `Options:\n${table(options.map(([flag, o]) => [flagSyntax(flag, o), optionMeaning(o)])).join('\n')}`,
    );
  }
  sections.push(`Examples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
  sections.push(...(spec.api === 'public' ? [] : [globalHelp()]), EXIT_CODES);
  return `${sections.join('\n\n')}\n`;
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** `help`, `--help`, `help GROUP [SUB]`, `GROUP [--help]`, `GROUP SUB ... --help`; else undefined. */
function helpFor(argv: string[]): string | undefined {
  const [first, second, third] = argv;
  if (first === undefined || HELP_FLAGS.has(first)) return generalHelp();
  if (first === 'help') {
    if (second === undefined) return generalHelp();
    if (third !== undefined) return commandHelp(`${second} ${third}`);
    if (groups().has(second)) return groupHelp(second);
    throw new UsageError(`unknown command: ${second} (see payoutctl --help)`);
  }
  const name = `${first} ${second ?? ''}`;
  if (COMMANDS[name]) return argv.slice(2).some((a) => HELP_FLAGS.has(a)) ? commandHelp(name) : undefined;
  if (groups().has(first) && (second === undefined || HELP_FLAGS.has(second))) return groupHelp(first);
  return undefined;
}

function checkTable(spec: CommandSpec, values: Values, positionals: string[]): void {
  for (const [i, positional] of (spec.positionals ?? []).entries()) {
    if (!positionals[i]?.trim()) throw new UsageError(`${positional.name} is required`);
  }
  for (const [flag, option] of Object.entries(spec.options)) {
    const value = values[flag];
    if (option.required && (typeof value !== 'string' || value.trim() === '')) {
      throw new UsageError(`--${flag} is required`);
    }
    if (option.choices && typeof value === 'string' && !option.choices.includes(value.trim())) {
      throw new UsageError(`--${flag} must be one of ${option.choices.join(', ')}`);
    }
  }
}

function parserOptions(options: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(options).map(([flag, o]) => [
      flag,
      { type: o.value ? ('string' as const) : ('boolean' as const), multiple: o.multiple ?? false },
    ]),
  );
}

function publicConnection(values: Values, env: NodeJS.ProcessEnv): PublicConnection {
  const baseUrl = (values['base-url'] as string | undefined) ?? env['QR_PAYOUT_BASE_URL'] ?? DEFAULT_BASE_URL;
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new UsageError('--base-url must be an http(s) URL');
  const apiKey = (values['api-key'] as string | undefined) ?? env['QR_PAYOUT_API_KEY'] ?? '';
  if (!apiKey) throw new UsageError("no API key: set QR_PAYOUT_API_KEY or pass --api-key (the tenant's key)");
  return { baseUrl, apiKey };
}

/** Parses argv (without node and script) with the environment's defaults. Throws UsageError. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): Parsed {
  const help = helpFor(argv);
  if (help !== undefined) return { type: 'help', text: help };
  const [group, action] = argv;
  const name = `${group} ${action ?? ''}`;
  const spec = COMMANDS[name];
  if (!spec) {
    throw new UsageError(
      `unknown command: ${[group, action].filter(Boolean).join(' ')} (see payoutctl --help)`,
    );
  }

  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv.slice(2),
      options: parserOptions(
        spec.api === 'public'
          ? { help: GLOBAL_OPTIONS.help as OptionSpec, ...spec.options }
          : { ...GLOBAL_OPTIONS, ...spec.options },
      ),
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (err) {
    throw new UsageError(`${(err as Error).message} (see payoutctl ${name} --help)`);
  }

  const allowed = spec.positionals?.length ?? 0;
  if (parsed.positionals.length > allowed) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[allowed]}`);
  }
  checkTable(spec, parsed.values, parsed.positionals);
  const command = spec.build(
    parsed.values,
    parsed.positionals.map((p) => p.trim()),
  );
  if (command.kind === 'trigger')
    return { type: 'trigger', command, connection: publicConnection(parsed.values, env) };

  const adminUrl =
    (parsed.values['admin-url'] as string | undefined) ?? env['PAYOUT_ADMIN_URL'] ?? DEFAULT_ADMIN_URL;
  if (!/^https?:\/\/[^\s/]+/.test(adminUrl)) throw new UsageError('--admin-url must be an http(s) URL');
  const token = (parsed.values['token'] as string | undefined) ?? env['PAYOUT_ADMIN_TOKEN'] ?? '';
  if (!token) throw new UsageError('no operator token: set PAYOUT_ADMIN_TOKEN or pass --token');
  return { type: 'run', command, connection: { adminUrl, token } };
}
