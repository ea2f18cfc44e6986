// @ts-check
// The tenant side (docs/dashboard.md "Tenant side"): the public API with the tenant's key in
// x-api-key, nothing else.
import { queryString } from './answers.js';
import { createSession, requestJson } from './api.js';
import {
  detailList,
  el,
  filterForm,
  inputField,
  renderTable,
  statusBadge,
  statusField,
  viewLink,
} from './dom.js';
import { formatDuration, formatMoney, formatTime, NONE } from './format.js';
import { startDashboard } from './shell.js';
import {
  attemptsTable,
  deliveriesTable,
  deliverySummary,
  endpointsTable,
  followDelivery,
  replayControl,
} from './webhook-views.js';

/** @typedef {import('./shell.js').ViewContext} ViewContext */

const session = createSession('qr-payout-dashboard-api-key');

/**
 * A GET or POST of the public API with the key.
 * @param {ViewContext | string} auth  the view's context, or the key itself at sign-in
 * @param {string} path
 * @param {string} [method]
 */
function api(auth, path, method = 'GET') {
  const key = typeof auth === 'string' ? auth : auth.credential;
  return requestJson(path, { method, headers: { 'x-api-key': key } });
}

/**
 * A "next page" link when the API gave a cursor.
 * @param {string} path
 * @param {URLSearchParams} query
 * @param {string | null} nextCursor
 */
function pager(path, query, nextCursor) {
  if (!nextCursor) return el('p', { class: 'pager' }, 'End of the list.');
  const next = new URLSearchParams(query);
  next.set('cursor', nextCursor);
  return el('p', { class: 'pager' }, el('a', { href: `#${path}?${next}` }, 'Next page'));
}

/** A date input's value (YYYY-MM-DD, UTC) as the API's timestamp filter. @param {string | null} day */
function dayStart(day) {
  return day ? `${day}T00:00:00.000Z` : null;
}

/** @param {any} t  a transaction as GET /v1/transactions answers it */
function walletMoney(t) {
  if (t.walletAmount === null || !t.walletCurrency) return NONE;
  const rate = t.quote ? ` at ${t.quote.rate}` : '';
  return `${formatMoney(t.walletAmount, t.walletCurrency)}${rate}`;
}

/** @param {ViewContext} context */
async function transactionsView(context) {
  const { query } = context;
  const apiQuery = queryString({
    status: query.get('status'),
    created_gte: dayStart(query.get('from')),
    created_lt: dayStart(query.get('to')),
    cursor: query.get('cursor'),
  });
  const page = await api(context, `/v1/transactions${apiQuery}`);
  const filters = filterForm('/transactions', [
    statusField({ list: 'transaction-statuses', label: 'Status', value: query.get('status') ?? '' }),
    inputField({
      name: 'from',
      label: 'Created from (UTC day)',
      type: 'date',
      value: query.get('from') ?? '',
    }),
    inputField({ name: 'to', label: 'Created before (UTC day)', type: 'date', value: query.get('to') ?? '' }),
  ]);
  const table = renderTable({
    caption: 'Transactions, newest first',
    empty: 'No transactions match.',
    rows: /** @type {any[]} */ (page.transactions),
    columns: [
      { header: 'Transaction', cell: (t) => viewLink(`/transactions/${t.id}`, t.id) },
      { header: 'Status', cell: (t) => statusBadge(t.status) },
      { header: 'Amount', cell: (t) => formatMoney(t.amount, t.currency) },
      { header: 'Paid from wallet', cell: walletMoney },
      { header: 'Merchant', cell: (t) => t.creditor.name || NONE },
      { header: 'Rail', cell: (t) => t.rail },
      { header: 'Created', cell: (t) => formatTime(t.createdAt) },
    ],
  });
  return [el('h2', {}, 'Transactions'), filters, table, pager('/transactions', query, page.next_cursor)];
}

/** @param {any} t */
function transactionFacts(t) {
  return detailList([
    ['Status', statusBadge(t.status)],
    ['Amount (merchant receives)', formatMoney(t.amount, t.currency)],
    ['Paid from wallet', walletMoney(t)],
    ['FX quote', t.quote ? `${t.quote.id}, rate ${t.quote.rate}` : NONE],
    ['Merchant', t.creditor.name || NONE],
    ['Merchant account', t.creditor.account || NONE],
    ['Scheme', `${t.scheme} (${t.country})`],
    ['Rail', t.rail],
    ['Instruction', t.instructionId],
    ['Partner reference', t.result?.reference ?? NONE],
    ['Settled by the partner', t.result?.settledAt ? formatTime(t.result.settledAt) : NONE],
    ['Error', t.error ? `${t.error.code}: ${t.error.reason}` : NONE],
  ]);
}

/**
 * Its `statusHistory` (docs/api/resources.md "State history"): each state entered, when, and how long
 * after the one before.
 * @param {any} t
 */
function transactionTimeline(t) {
  /** @type {{ status: string, at: string }[]} */
  const history = t.statusHistory;
  return renderTable({
    caption: 'State history',
    empty: NONE,
    rows: history.map((change, i) => ({ ...change, before: i > 0 ? history[i - 1]?.at : undefined })),
    columns: [
      { header: 'State', cell: (r) => statusBadge(r.status) },
      { header: 'Entered', cell: (r) => formatTime(r.at) },
      {
        header: 'After',
        cell: (r) => (r.before ? `+${formatDuration(Date.parse(r.at) - Date.parse(r.before))}` : NONE),
      },
    ],
  });
}

/** @param {any} d  a delivery as the public API answers it */
function toDeliveryView(d) {
  return {
    id: d.id,
    eventType: d.event_type,
    transactionId: d.transaction_id,
    endpointId: d.endpoint_id,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    maxAttempts: d.max_attempts,
    nextAttemptAt: d.next_attempt_at,
    lastAttemptAt: d.last_attempt_at,
    lastResponseStatus: d.last_response_status,
    lastError: d.last_error,
    createdAt: d.created_at,
  };
}

const deliveryPath = (/** @type {string} */ id) => `/deliveries/${id}`;
const transactionPath = (/** @type {string} */ id) => `/transactions/${id}`;

/** @param {ViewContext} context */
async function transactionView(context) {
  const id = context.match[0] ?? '';
  const [{ transaction: t }, deliveries] = await Promise.all([
    api(context, `/v1/transactions/${encodeURIComponent(id)}`),
    api(context, `/v1/webhook-deliveries${queryString({ transaction_id: id, limit: '100' })}`),
  ]);
  return [
    el('h2', {}, `Transaction ${t.id}`),
    transactionFacts(t),
    transactionTimeline(t),
    el('h3', {}, 'Its webhook events'),
    deliveriesTable(deliveries.deliveries.map(toDeliveryView), deliveryPath, 'omit'),
  ];
}

/** @param {ViewContext} context */
async function deliveriesView(context) {
  const { query } = context;
  const apiQuery = queryString({ status: query.get('status'), cursor: query.get('cursor') });
  const page = await api(context, `/v1/webhook-deliveries${apiQuery}`);
  const filters = filterForm('/deliveries', [
    statusField({ list: 'delivery-statuses', label: 'Status', value: query.get('status') ?? '' }),
  ]);
  return [
    el('h2', {}, 'Webhook deliveries'),
    filters,
    deliveriesTable(page.deliveries.map(toDeliveryView), deliveryPath, transactionPath),
    pager('/deliveries', query, page.next_cursor),
  ];
}

/** @param {any} a  an attempt of attempt_log */
function toAttemptView(a) {
  return {
    number: a.attempt_number,
    trigger: a.trigger,
    startedAt: a.started_at,
    durationMs: a.duration_ms,
    responseStatus: a.response_status,
    errorClass: a.error_class,
    error: a.error,
    address: a.resolved_address,
    excerpt: a.response_excerpt,
    succeeded: a.succeeded,
  };
}

/** @param {ViewContext} context */
async function deliveryView(context) {
  const path = `/v1/webhook-deliveries/${encodeURIComponent(context.match[0] ?? '')}`;
  const { delivery: d } = await api(context, path);
  const delivery = toDeliveryView(d);
  followDelivery(delivery, context);
  const earlier = d.earlier_attempts
    ? el('p', { class: 'hint' }, `${d.earlier_attempts} older attempts of earlier series are no longer kept.`)
    : null;
  return [
    el('h2', {}, `Delivery ${delivery.id}`),
    delivery.transactionId
      ? el(
          'p',
          {},
          'About transaction ',
          viewLink(transactionPath(delivery.transactionId), delivery.transactionId),
        )
      : null,
    deliverySummary(delivery),
    replayControl(delivery, () => api(context, `${path}/replay`, 'POST'), context.refresh),
    attemptsTable(d.attempt_log.map(toAttemptView)),
    earlier,
  ].filter((node) => node !== null);
}

/** @param {ViewContext} context */
async function endpointsView(context) {
  const { endpoints } = await api(context, '/v1/webhook-endpoints');
  /** @type {import('./webhook-views.js').EndpointView[]} */
  const rows = endpoints.map((/** @type {any} */ e) => ({
    id: e.id,
    url: e.url,
    eventTypes: e.event_types,
    headerNames: e.header_names,
    retryStrategy: e.retry_strategy,
    enabled: e.enabled,
    disabledReason: e.disabled_reason,
    createdAt: e.created_at,
  }));
  return [el('h2', {}, 'Webhook endpoints'), endpointsTable(rows)];
}

startDashboard({
  session,
  credentialLabel: 'API key',
  credentialHint:
    'Your secret key (the x-api-key of your calls). It stays in this tab until you sign out or close it.',
  verify: async (key) => {
    await api(key, '/v1/webhook-endpoints');
  },
  nav: [
    ['/transactions', 'Transactions'],
    ['/deliveries', 'Webhook deliveries'],
    ['/endpoints', 'Webhook endpoints'],
  ],
  home: '/transactions',
  routes: [
    { pattern: /^\/transactions$/, title: 'Transactions', view: transactionsView },
    { pattern: /^\/transactions\/([\w-]+)$/, title: 'Transaction', view: transactionView },
    { pattern: /^\/deliveries$/, title: 'Webhook deliveries', view: deliveriesView },
    { pattern: /^\/deliveries\/([\w-]+)$/, title: 'Webhook delivery', view: deliveryView },
    { pattern: /^\/endpoints$/, title: 'Webhook endpoints', view: endpointsView },
  ],
});
