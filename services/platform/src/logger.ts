import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';
import { requestContext } from './context';

export type Logger = pino.Logger;
/** pino's levels, as LOG_LEVEL accepts them. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

type LoggerOptions = {
  service: string;
  level?: LogLevel;
  /** Where JSON lines go; stdout by default. Tests pass a capturing stream. */
  destination?: pino.DestinationStream;
};

const REDACTED = '[REDACTED]';

// Key names (compared lower-cased with separators removed) whose values never reach a log line:
// docs/contributing.md "Errors and logs": no API keys, signing secrets, header values, tax ids,
// account numbers. `account` alone is the creditor's or payer's account (proto payout.v1
// Party.account). The payer's identity document is never logged either (docs/payer-identity.md):
// `document` is the partner protocol's originator document (type, number, issuing country;
// docs/partner-protocol.md) and `payer_country` / `payer_id_type` (`idType`) are its country and
// type wherever payout holds them (payer_tax_id, its number, is `taxid`).
const SENSITIVE_KEY =
  /(apikey|secret|token|passw|authorization|cookie|signature|taxid|accountnumber|privatekey|credential)|account$|^document$|^payercountry$|^(payer)?idtype$/;

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(normalizeKey(key));
}

const MAX_DEPTH = 12;

/** A copy of `value` with the value of every sensitive key replaced, at any depth. */
// The password of a URL such as postgres://user:password@host, wherever a string holds one.
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]+@/gi;

function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string')
    return value.includes('://') ? value.replace(URL_PASSWORD, `$1${REDACTED}@`) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[Truncated]';
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (value instanceof Error) {
    return redactDeep(pino.stdSerializers.err(value), depth, seen);
  }
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1, seen));
  if (value instanceof Date || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSensitiveKey(key) ? REDACTED : redactDeep(item, depth + 1, seen);
  }
  return out;
}

// Adds the request id of the current request and the ids of the active span to every line.
function correlationFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  const context = requestContext.get();
  if (context) fields['request_id'] = context.requestId;
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext && isSpanContextValid(spanContext)) {
    fields['trace_id'] = spanContext.traceId;
    fields['span_id'] = spanContext.spanId;
  }
  return fields;
}

/** JSON lines: time, level, service, msg, and request_id / trace_id / span_id when present. */
export function createLogger(opts: LoggerOptions): Logger {
  const logger = pino(
    {
      level: opts.level ?? 'info',
      base: { service: opts.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: correlationFields,
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => redactDeep(bindings) as Record<string, unknown>,
        log: (object) => redactDeep(object) as Record<string, unknown>,
      },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  // pino skips formatters.bindings for child loggers; redact their bindings on the way in.
  // Children inherit this method through their prototype.
  const pinoChild = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, options) {
    return pinoChild.call(this, redactDeep(bindings) as pino.Bindings, options);
  } as typeof logger.child;
  return logger;
}

/** A logger that writes nothing, for tests and defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
