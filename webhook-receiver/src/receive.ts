import type { EventDeduplicator } from './dedupe';
import { type ParseFailureReason, parseWebhookEvent, type WebhookEvent } from './event';
import { SIGNATURE_HEADER, type SignatureFailureReason, verifyWebhookSignature } from './signature';

/** Node's `req.headers` (node:http, Express, Fastify) or a fetch `Headers` (Next.js, Hono, Bun, Deno). */
export type WebhookHeaders =
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null | undefined };

export type ReceiveWebhookOptions = {
  headers: WebhookHeaders;
  /** The exact request body bytes, before any JSON parsing. */
  rawBody: Buffer | string;
  /** The signing secret, or several (current first) while you rotate yours. */
  secrets: string | readonly string[];
  /** Maximum |now − t| in seconds; default 300. */
  toleranceSeconds?: number;
  /** Without it every verified event reads as new (`duplicate: false`). */
  dedupe?: EventDeduplicator;
  /** The receiver's clock; default `new Date()` (tests). */
  now?: Date;
};

/** What to answer, and the event to process when there is one (`status` 200, `!duplicate`). */
export type ReceiveWebhookResult =
  | { status: 200; event: WebhookEvent; duplicate: boolean; reason?: undefined }
  | {
      /** A verified event of a type this version does not know (a `["*"]` subscription): acknowledge it. */
      status: 200;
      event?: undefined;
      duplicate: false;
      reason: 'unknown_event_type';
      eventId: string;
      eventType: string;
    }
  | {
      status: 400;
      event?: undefined;
      duplicate: false;
      reason: Exclude<ParseFailureReason, 'unknown_event_type'>;
      detail: string;
    }
  | { status: 401; event?: undefined; duplicate: false; reason: SignatureFailureReason };

/**
 * One call for a webhook handler: verifies the signature over the raw body (401 when it does not
 * verify), parses the envelope (400 when it is not a valid event), records the event id in
 * `dedupe` (200 with `duplicate: true` when seen before), and says what to answer.
 *
 * The `x-event-id` / `x-event-type` headers are not signed and are not used; the signed body is
 * authoritative. Rejects only when `dedupe.firstSeen` rejects (answer 5xx: the service retries)
 * or on a misuse (TypeError: no secret, a parsed object instead of the raw body).
 */
export async function receiveWebhook(opts: ReceiveWebhookOptions): Promise<ReceiveWebhookResult> {
  const check = verifyWebhookSignature({
    header: headerValue(opts.headers, SIGNATURE_HEADER),
    rawBody: opts.rawBody,
    secrets: opts.secrets,
    ...(opts.toleranceSeconds === undefined ? {} : { toleranceSeconds: opts.toleranceSeconds }),
    ...(opts.now === undefined ? {} : { now: opts.now }),
  });
  if (!check.ok) return { status: 401, duplicate: false, reason: check.reason };

  const parsed = parseWebhookEvent(opts.rawBody);
  if (!parsed.ok) {
    if (parsed.reason === 'unknown_event_type') {
      // Not recorded: after an upgrade that knows the type, a replay is processed.
      return {
        status: 200,
        duplicate: false,
        reason: 'unknown_event_type',
        eventId: parsed.eventId,
        eventType: parsed.eventType,
      };
    }
    return { status: 400, duplicate: false, reason: parsed.reason, detail: parsed.detail };
  }

  const event = parsed.event;
  const duplicate = opts.dedupe ? !(await opts.dedupe.firstSeen(event.event_id)) : false;
  return { status: 200, event, duplicate };
}

/**
 * One header's value, looked up case-insensitively. A header repeated as an array is
 * malformed for the signature (the service sends exactly one), so it reads as a value that
 * cannot verify rather than picking one of them.
 */
function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) throw new TypeError('headers must be an object');
  if (typeof headers.get === 'function' && !Array.isArray(headers)) {
    const value = (headers as { get(name: string): string | null | undefined }).get(name);
    return value ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === name) {
        value = record[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) return value.length === 1 ? value[0] : MALFORMED;
  return value;
}

const MALFORMED = '\u0000';
