// @ts-check
// Reading the API's answers (docs/dashboard.md "Security"): its error bodies, query strings and
// Connect JSON enum values; pure functions, no DOM.

/** An API answer that was not 2xx, with the message the API wrote. */
export class ApiRequestError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {string | null} name  the public API's `_tag` or Connect's `code`
   */
  constructor(message, status, name) {
    super(message);
    this.status = status;
    this.name = name ?? 'ApiRequestError';
  }
}

/**
 * The message of an error body: the public API's `{ _tag, message, ... }` (docs/api/errors.md "The
 * error body") or Connect's `{ code, message }`; the status line when the body is neither.
 * @param {unknown} body
 * @param {number} status
 * @returns {ApiRequestError}
 */
export function errorFromBody(body, status) {
  const fields = body && typeof body === 'object' ? /** @type {Record<string, unknown>} */ (body) : {};
  const message = typeof fields.message === 'string' && fields.message ? fields.message : `HTTP ${status}`;
  const name =
    typeof fields._tag === 'string' ? fields._tag : typeof fields.code === 'string' ? fields.code : null;
  return new ApiRequestError(message, status, name);
}

/**
 * A query string of the set values only, keys in the given order.
 * @param {Record<string, string | null | undefined>} params
 */
export function queryString(params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * A protobuf enum value in Connect JSON ("DELIVERY_STATUS_FAILED") as the public API's word ("failed").
 * @param {string | undefined} value
 * @param {string} prefix
 */
export function enumWord(value, prefix) {
  if (!value) return 'unspecified';
  return value.startsWith(prefix) ? value.slice(prefix.length).toLowerCase() : value.toLowerCase();
}

/**
 * @typedef {{ status: string, nextAttemptAt: string | null, lastAttemptAt: string | null }} DeliveryTiming
 */

/**
 * While an attempt is this close (due, or started, within 30 s) the open delivery follows it; one
 * long overdue or long in flight (a worker behind) is not followed, so an open page does not spend
 * the key's rate limit for nothing.
 */
const FOLLOW_WITHIN_MS = 30_000;

/**
 * Whether a delivery's next attempt is close enough to follow: in flight since less than 30 s, or
 * pending and due within 30 s either side of now (docs/dashboard.md "Tenant side", Replay).
 * @param {DeliveryTiming} delivery
 * @param {number} now  milliseconds since the epoch
 */
export function attemptIsClose(delivery, now) {
  /** @param {string | null} iso */
  const near = (iso) => iso !== null && Math.abs(Date.parse(iso) - now) < FOLLOW_WITHIN_MS;
  if (delivery.status === 'delivering') return near(delivery.lastAttemptAt);
  if (delivery.status === 'pending') return near(delivery.nextAttemptAt);
  return false;
}
