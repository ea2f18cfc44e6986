// @ts-check
// Webhook deliveries, their attempts and endpoints, drawn the same way on both sides
// (docs/dashboard.md "What each side shows"); each side maps its API's shapes to these first.
import { attemptIsClose } from './answers.js';
import { detailList, el, renderTable, statusBadge, viewLink } from './dom.js';
import { formatDuration, formatTime, NONE } from './format.js';

/**
 * @typedef {{
 *   id: string, eventType: string, transactionId: string | null, endpointId: string | null, url: string,
 *   status: string, attempts: number, maxAttempts: number, nextAttemptAt: string | null,
 *   lastAttemptAt: string | null, lastResponseStatus: number | null, lastError: string | null,
 *   createdAt: string,
 * }} DeliveryView
 * @typedef {{
 *   number: number, trigger: string, startedAt: string, durationMs: number, responseStatus: number | null,
 *   errorClass: string | null, error: string | null, address: string | null, excerpt: string | null,
 *   succeeded: boolean,
 * }} AttemptView
 * @typedef {{
 *   id: string, url: string, eventTypes: string[], headerNames: string[], retryStrategy: string,
 *   enabled: boolean, disabledReason: string | null, createdAt: string,
 * }} EndpointView
 */

/** The states a replay may start from (docs/api/webhooks.md "Delivery states"). */
const REPLAYABLE = new Set(['delivered', 'failed', 'exhausted']);
/** How often the open delivery reloads while an attempt is close (attemptIsClose). */
const FOLLOW_EVERY_MS = 1_000;

/** @param {number | null} status */
function answerText(status) {
  return status === null ? 'no answer' : `HTTP ${status}`;
}

/**
 * @param {DeliveryView[]} deliveries
 * @param {(id: string) => string} pathOf  the view path of one delivery
 * @param {((id: string) => string | null) | 'omit'} transactionPathOf  the view path of a
 *   transaction, if any; 'omit' leaves the column out (on the page of that one transaction)
 */
export function deliveriesTable(deliveries, pathOf, transactionPathOf) {
  /** @type {import('./dom.js').Column<DeliveryView>[]} */
  const transactionColumn =
    transactionPathOf === 'omit'
      ? []
      : [
          {
            header: 'Transaction',
            cell: (d) => {
              const path = d.transactionId ? transactionPathOf(d.transactionId) : null;
              return path && d.transactionId ? viewLink(path, d.transactionId) : (d.transactionId ?? NONE);
            },
          },
        ];
  return renderTable({
    caption: 'Webhook deliveries, newest first',
    empty: 'No deliveries match.',
    rows: deliveries,
    columns: [
      { header: 'Delivery', cell: (d) => viewLink(pathOf(d.id), d.id) },
      { header: 'Event', cell: (d) => d.eventType },
      { header: 'Status', cell: (d) => statusBadge(d.status) },
      ...transactionColumn,
      { header: 'Attempts', cell: (d) => `${d.attempts} of ${d.maxAttempts}` },
      { header: 'Last answer', cell: (d) => (d.lastAttemptAt ? answerText(d.lastResponseStatus) : NONE) },
      { header: 'Next retry', cell: (d) => formatTime(d.nextAttemptAt) },
      { header: 'Created', cell: (d) => formatTime(d.createdAt) },
    ],
  });
}

/** @param {DeliveryView} delivery */
export function deliverySummary(delivery) {
  return detailList([
    ['Status', statusBadge(delivery.status)],
    ['Event', delivery.eventType],
    ['Target URL', el('code', {}, delivery.url)],
    ['Endpoint', delivery.endpointId ?? 'callback_url of the payment'],
    ['Attempts', `${delivery.attempts} of ${delivery.maxAttempts}`],
    ['Last attempt', formatTime(delivery.lastAttemptAt)],
    ['Last answer', delivery.lastAttemptAt ? answerText(delivery.lastResponseStatus) : NONE],
    ['Last error', delivery.lastError ?? NONE],
    ['Next retry', formatTime(delivery.nextAttemptAt)],
    ['Created', formatTime(delivery.createdAt)],
  ]);
}

/** @param {AttemptView} attempt */
function attemptResult(attempt) {
  if (attempt.succeeded) return statusBadge('succeeded');
  return [statusBadge('failed'), ' ', attempt.error ?? attempt.errorClass ?? ''];
}

/** @param {AttemptView[]} attempts  oldest first, as the API lists them */
export function attemptsTable(attempts) {
  return renderTable({
    caption: 'Attempts, oldest first (a replay starts again at 1)',
    empty: 'No attempt yet.',
    rows: attempts,
    columns: [
      { header: '#', cell: (a) => String(a.number) },
      { header: 'Trigger', cell: (a) => a.trigger },
      { header: 'Started', cell: (a) => formatTime(a.startedAt) },
      { header: 'Duration', cell: (a) => formatDuration(a.durationMs) },
      { header: 'HTTP status', cell: (a) => (a.responseStatus === null ? NONE : String(a.responseStatus)) },
      { header: 'Result', cell: attemptResult },
      {
        header: 'Answer excerpt',
        cell: (a) => (a.excerpt ? el('pre', { class: 'excerpt' }, a.excerpt) : NONE),
      },
      { header: 'Address', cell: (a) => a.address ?? NONE },
    ],
  });
}

/**
 * The Replay button of a delivery in a final state: on success the view reloads (the new attempt
 * follows); a refusal (409 in flight, 429 too soon) shows the API's own message.
 * @param {DeliveryView} delivery
 * @param {() => Promise<unknown>} replay
 * @param {() => void} refresh
 */
export function replayControl(delivery, replay, refresh) {
  const message = el('p', { role: 'status', class: 'replay-message' });
  /** @param {Event} event */
  const click = async (event) => {
    const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    button.disabled = true;
    message.textContent = 'Replaying…';
    try {
      await replay();
      message.textContent = 'Replay queued: a new attempt starts now.';
      refresh();
    } catch (err) {
      message.textContent = err instanceof Error ? err.message : String(err);
      message.classList.add('error');
      button.disabled = false;
    }
  };
  const allowed = REPLAYABLE.has(delivery.status);
  return el(
    'div',
    { class: 'actions' },
    el('button', { type: 'button', class: 'replay', onclick: click, disabled: !allowed }, 'Replay'),
    allowed ? null : el('p', { class: 'hint' }, `A ${delivery.status} delivery cannot be replayed yet.`),
    message,
  );
}

/**
 * Reloads the open delivery each second while an attempt is close (attemptIsClose).
 * @param {import('./answers.js').DeliveryTiming} delivery
 * @param {{ signal: AbortSignal, refresh: () => void }} context
 */
export function followDelivery(delivery, context) {
  if (!attemptIsClose(delivery, Date.now())) return;
  const timer = setTimeout(() => {
    if (!context.signal.aborted) context.refresh();
  }, FOLLOW_EVERY_MS);
  context.signal.addEventListener('abort', () => clearTimeout(timer));
}

/** @param {EndpointView} endpoint */
function endpointState(endpoint) {
  if (endpoint.enabled) return statusBadge('enabled');
  return [statusBadge('disabled'), endpoint.disabledReason ? ` reason: ${endpoint.disabledReason}` : ''];
}

/** @param {EndpointView[]} endpoints */
export function endpointsTable(endpoints) {
  return renderTable({
    caption: 'Webhook endpoints (custom header names only; their values are never shown)',
    empty: 'No endpoint is registered.',
    rows: endpoints,
    columns: [
      { header: 'Endpoint', cell: (e) => e.id },
      { header: 'URL', cell: (e) => el('code', {}, e.url) },
      { header: 'Events', cell: (e) => e.eventTypes.join(', ') },
      { header: 'Custom headers', cell: (e) => (e.headerNames.length ? e.headerNames.join(', ') : NONE) },
      { header: 'Retries', cell: (e) => e.retryStrategy },
      { header: 'State', cell: endpointState },
      { header: 'Created', cell: (e) => formatTime(e.createdAt) },
    ],
  });
}
