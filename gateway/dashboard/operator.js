// @ts-check
// The operator side (docs/dashboard.md "Operator side"), served on the admin port only: every
// datum comes from AdminService over Connect JSON with the operator token as a bearer token.
import { enumWord } from './answers.js';
import { createSession, requestJson } from './api.js';
import { el, filterForm, renderTable, statusBadge, statusField, viewLink } from './dom.js';
import { formatDuration, formatTime, NONE } from './format.js';
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

const session = createSession('qr-payout-dashboard-operator-token');

/**
 * One AdminService call (POST /payout.admin.v1.AdminService/<Method>, Connect JSON).
 * @param {ViewContext | string} auth  the view's context, or the token itself at sign-in
 * @param {string} method
 * @param {Record<string, unknown>} [body]
 */
function rpc(auth, method, body = {}) {
  const token = typeof auth === 'string' ? auth : auth.credential;
  return requestJson(`/payout.admin.v1.AdminService/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
}

/**
 * Proto3 JSON leaves out zero values: 0, '', false and empty lists are absent.
 * @param {any} d  a payout.webhook.v1.Delivery
 */
function toDeliveryView(d) {
  return {
    id: d.id,
    eventType: d.eventType ?? '',
    transactionId: d.transactionId || null,
    endpointId: d.endpointId || null,
    url: d.url ?? '',
    status: enumWord(d.status, 'DELIVERY_STATUS_'),
    attempts: d.attempts ?? 0,
    maxAttempts: d.maxAttempts ?? 0,
    nextAttemptAt: d.nextAttemptAt ?? null,
    lastAttemptAt: d.lastAttemptAt ?? null,
    lastResponseStatus: d.lastResponseStatus || null,
    lastError: d.lastError || null,
    createdAt: d.createdAt ?? '',
  };
}

/** @param {any} a  a payout.webhook.v1.DeliveryAttempt */
function toAttemptView(a) {
  return {
    number: a.attemptNumber ?? 0,
    trigger: a.trigger ?? '',
    startedAt: a.startedAt ?? '',
    durationMs: a.durationMs ?? 0,
    responseStatus: a.responseStatus || null,
    errorClass: a.errorClass || null,
    error: a.error || null,
    address: a.resolvedAddress || null,
    excerpt: a.responseExcerpt || null,
    succeeded: a.succeeded ?? false,
  };
}

/** @param {any} e  a payout.webhook.v1.Endpoint (header names only: the service never returns values) */
function toEndpointView(e) {
  return {
    id: e.id,
    url: e.url ?? '',
    eventTypes: e.eventTypes ?? [],
    headerNames: e.headerNames ?? [],
    retryStrategy: enumWord(e.retryStrategy, 'RETRY_STRATEGY_'),
    enabled: e.enabled ?? false,
    disabledReason: e.disabledReason || null,
    createdAt: e.createdAt ?? '',
  };
}

const tenantPath = (/** @type {string} */ id) => `/tenants/${id}`;
const deliveryPath = (/** @type {string} */ id) => `/deliveries/${id}`;

/** @param {ViewContext} context */
async function tenantsView(context) {
  const { tenants = [] } = await rpc(context, 'ListTenants');
  const table = renderTable({
    caption: 'Tenants',
    empty: 'No tenant yet.',
    rows: /** @type {any[]} */ (tenants),
    columns: [
      { header: 'Tenant', cell: (t) => viewLink(tenantPath(t.id), t.id) },
      { header: 'Name', cell: (t) => t.name ?? '' },
      {
        header: 'Rate limit',
        cell: (t) => (t.rateLimitPerMinute ? `${t.rateLimitPerMinute}/min` : 'default'),
      },
      { header: 'Created', cell: (t) => formatTime(t.createdAt) },
    ],
  });
  return [el('h2', {}, 'Tenants'), table];
}

/** @param {any[]} stuck  payout.payout.v1.StuckTransaction, oldest first */
function stuckTable(stuck) {
  return renderTable({
    caption: 'Stuck transactions: past their rail settlement horizon, oldest first',
    empty: 'No stuck transaction.',
    rows: stuck,
    columns: [
      { header: 'Transaction', cell: (s) => s.id },
      { header: 'Tenant', cell: (s) => viewLink(tenantPath(s.tenantId), s.tenantId) },
      { header: 'Status', cell: (s) => statusBadge(enumWord(s.status, 'TRANSACTION_STATUS_')) },
      { header: 'Rail', cell: (s) => s.rail ?? '' },
      { header: 'Age', cell: (s) => formatDuration(Number(s.ageMs ?? 0)) },
      { header: 'Horizon', cell: (s) => formatDuration(Number(s.horizonMs ?? 0)) },
      { header: 'Partner payout', cell: (s) => s.partnerPayoutId || NONE },
      { header: 'Last polled', cell: (s) => formatTime(s.lastPolledAt) },
      { header: 'Created', cell: (s) => formatTime(s.createdAt) },
    ],
  });
}

/** @param {ViewContext} context */
async function tenantView(context) {
  const tenantId = context.match[0] ?? '';
  const status = context.query.get('status') ?? '';
  const deliveryQuery = {
    tenantId,
    page: { limit: 50 },
    ...(status ? { status: `DELIVERY_STATUS_${status.toUpperCase()}` } : {}),
  };
  const [endpoints, deliveries, stuck] = await Promise.all([
    rpc(context, 'ListWebhookEndpoints', { tenantId }),
    rpc(context, 'ListWebhookDeliveries', deliveryQuery),
    rpc(context, 'ListStuckTransactions', { tenantId }),
  ]);
  const filters = filterForm(tenantPath(tenantId), [
    statusField({ list: 'delivery-statuses', label: 'Delivery status', value: status }),
  ]);
  return [
    el('h2', {}, `Tenant ${tenantId}`),
    el('h3', {}, 'Webhook endpoints'),
    endpointsTable((endpoints.endpoints ?? []).map(toEndpointView)),
    el('h3', {}, 'Webhook deliveries (latest 50)'),
    filters,
    deliveriesTable((deliveries.deliveries ?? []).map(toDeliveryView), deliveryPath, () => null),
    el('h3', {}, 'Stuck transactions'),
    stuckTable(stuck.transactions ?? []),
  ];
}

/** @param {ViewContext} context */
async function deliveryView(context) {
  const deliveryId = context.match[0] ?? '';
  const answer = await rpc(context, 'GetWebhookDelivery', { deliveryId });
  const delivery = toDeliveryView(answer.delivery ?? {});
  followDelivery(delivery, context);
  const tenantId = answer.delivery?.tenantId ?? '';
  return [
    el('h2', {}, `Delivery ${delivery.id}`),
    el(
      'p',
      {},
      'Of tenant ',
      viewLink(tenantPath(tenantId), tenantId),
      ', transaction ',
      delivery.transactionId ?? NONE,
    ),
    deliverySummary(delivery),
    replayControl(delivery, () => rpc(context, 'ReplayWebhookDelivery', { deliveryId }), context.refresh),
    attemptsTable((answer.attempts ?? []).map(toAttemptView)),
  ];
}

/** @param {ViewContext} context */
async function stuckView(context) {
  const { transactions = [] } = await rpc(context, 'ListStuckTransactions', {});
  return [el('h2', {}, 'Stuck transactions'), stuckTable(transactions)];
}

startDashboard({
  session,
  credentialLabel: 'Operator token',
  credentialHint:
    'The admin API token (PAYOUT_ADMIN_TOKEN). It stays in this tab until you sign out or close it.',
  verify: async (token) => {
    await rpc(token, 'ListTenants');
  },
  nav: [
    ['/tenants', 'Tenants'],
    ['/stuck', 'Stuck transactions'],
  ],
  home: '/tenants',
  routes: [
    { pattern: /^\/tenants$/, title: 'Tenants', view: tenantsView },
    { pattern: /^\/tenants\/([\w-]+)$/, title: 'Tenant', view: tenantView },
    { pattern: /^\/deliveries\/([\w-]+)$/, title: 'Webhook delivery', view: deliveryView },
    { pattern: /^\/stuck$/, title: 'Stuck transactions', view: stuckView },
  ],
});
