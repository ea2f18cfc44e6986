// The dashboard and the alerts against a real Prometheus (docs/testing.md "Alerts and dashboard
// against Prometheus"): Debian's prometheus scrapes every process of the system each second, with
// the target labels the chart's ServiceMonitor gives a scrape in Kubernetes (namespace, job = the
// Service's name, service, endpoint, pod, container, and app_kubernetes_io_component from
// podTargetLabels). After real traffic (pays, a refused body, an unknown transaction, a resolve
// while the decoder is down), every panel query of charts/qr-payout/dashboards/qr-payout.json and
// every alert expression of charts/qr-payout/alerts.json is evaluated through /api/v1/query: each
// parses and evaluates, each panel named below returns series carrying its legend's labels, and
// every metric and label a query names exists in what Prometheus scraped.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import {
  type ComponentName,
  freePort,
  httpOk,
  type ManagedProcess,
  REPO_ROOT,
  type System,
  spawnProcess,
  startSystem,
  type TestTenant,
  waitUntilReady,
} from './harness';
import { causeClientErrors } from './support/http';
import { payPix, resolvePix } from './support/pay';
import { eventually } from './support/processes';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

/** The namespace label every scrape carries, and what the dashboard's $namespace is set to. */
const NAMESPACE = 'qr-payout-e2e';
/** The chart's release name here: each Service, hence each scrape's job, is `<release>-<component>`. */
const RELEASE = 'qr-payout';
/**
 * $__rate_interval: Grafana makes it at least four scrape intervals; a minute covers all of this
 * test's traffic, so a counter the traffic moved has samples to rate.
 */
const RATE_INTERVAL = '1m';
const COMPONENTS: readonly ComponentName[] = ['gateway', 'decoder', 'fx', 'payout', 'webhook'];

type Target = { refId: string; expr: string; legendFormat?: string };
type Panel = { title: string; type: string; targets?: Target[] };
const dashboard = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'charts/qr-payout/dashboards/qr-payout.json'), 'utf8'),
) as { panels: Panel[]; templating: { list: { name: string; query?: { query: string } }[] } };
const alerts = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'charts/qr-payout/alerts.json'), 'utf8')) as {
    alerts: { alert: string; expr: string[] }[];
  }
).alerts;

/**
 * Every panel query, by `<panel title> <refId>`, and why the traffic below must give it series. A
 * query the traffic cannot feed (one needing a fault this test does not cause) would be listed in
 * MAY_BE_EMPTY with the reason; today there is none. Each query is in exactly one of the two.
 */
const MUST_HAVE_SERIES: Record<string, string> = {
  'Requests per second by route A':
    'pays (200), the refused body (400), the unknown transaction (404), resolve (503)',
  '5xx ratio A': 'resolve answered 503 while the decoder was down',
  'Latency p95 by route A': 'the same requests, in buckets',
  'Server calls per second and errors A': 'every service served RPCs (Decode, Pay, quotes, endpoints)',
  'Server calls per second and errors B': 'payout answered GetTransaction of the unknown id NOT_FOUND',
  'Server latency p95 A': 'the same RPCs, in buckets',
  'Client calls: errors by code A':
    "NOT_FOUND from payout, UNAVAILABLE from the stopped decoder, at the gateway's clients",
  'Client latency p95 A': 'the gateway and payout called the services',
  'Partner requests by outcome A': 'the pix submissions (…51 refused: client_error)',
  'Partner latency p95 A': 'the same partner requests, in buckets',
  'Outbox backlog A': 'payout reports its backlog (0 once the relay published)',
  'Outbox lag A': 'payout reports the oldest event age (0 once published)',
  'Stuck transactions by rail A': 'payout observes every configured rail, 0 included',
  'Kafka consumer lag A':
    "the webhook process runs the dispatcher (the harness's default), which reports its group's lag",
  'Oldest due delivery A': 'every webhook process reports it, 0 when nothing is due',
  'Deliveries by outcome A': 'the worker delivered the webhooks of the pays (delivered)',
  'Attempts by outcome A': 'the same deliveries (success)',
};
const MAY_BE_EMPTY: Record<string, string> = {};

let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;
let prometheus: { url: string; proc: ManagedProcess; dir: string } | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem();
  tenant = await system.createTenant(`e2e-prometheus-${randomBytes(4).toString('hex')}`, 1_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/prometheus-hook`, eventTypes: ['*'] },
  });
  prometheus = await startPrometheus(system);
}, 120_000);

afterAll(async () => {
  if (prometheus) await stopPrometheus(prometheus);
  await system?.stop();
  await receiver?.close();
}, 60_000);

/** The scrape configuration: one job per component, named and labelled as the ServiceMonitor's. */
function scrapeConfig(target: System): string {
  return stringify({
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: COMPONENTS.map((component) => {
      const url = new URL(target.metricsUrls[component]);
      return {
        job_name: `${RELEASE}-${component}`,
        metrics_path: url.pathname,
        static_configs: [
          {
            targets: [url.host],
            labels: {
              namespace: NAMESPACE,
              service: `${RELEASE}-${component}`,
              endpoint: 'metrics',
              pod: `${RELEASE}-${component}-0`,
              container: component,
              app_kubernetes_io_component: component,
            },
          },
        ],
      };
    }),
  });
}

/** Debian's /usr/bin/prometheus on a free loopback port, a fresh TSDB, ready to answer. */
async function startPrometheus(target: System) {
  try {
    execFileSync('prometheus', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(
      `cannot run prometheus (${(err as Error).message}): install it with \`scripts/infra install\` (Debian package prometheus; docs/testing.md "Alerts and dashboard against Prometheus")`,
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-prometheus-'));
  writeFileSync(path.join(dir, 'prometheus.yml'), scrapeConfig(target));
  const listen = `127.0.0.1:${await freePort()}`;
  const proc = spawnProcess(
    'prometheus',
    {
      command: 'prometheus',
      args: [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=${listen}`,
      ],
      cwd: dir,
      env: { PATH: process.env.PATH },
    },
    dir,
  );
  const started = { url: `http://${listen}`, proc, dir };
  try {
    await waitUntilReady(proc, 'GET /-/ready 200', httpOk(`${started.url}/-/ready`), 20_000);
  } catch (err) {
    await stopPrometheus(started);
    throw err;
  }
  return started;
}

async function stopPrometheus(running: { proc: ManagedProcess; dir: string }): Promise<void> {
  await running.proc.stop(10_000);
  rmSync(running.dir, { recursive: true, force: true });
}

type ApiAnswer<T> = { status: 'success'; data: T } | { status: 'error'; errorType: string; error: string };
type Series = { metric: Record<string, string>; value: [number, string] };

/** GET /api/v1/<endpoint> of the test's Prometheus; its JSON answer, success or error. */
async function api<T>(endpoint: string, params: [string, string][]): Promise<ApiAnswer<T>> {
  const response = await fetch(`${prometheus!.url}/api/v1/${endpoint}?${new URLSearchParams(params)}`);
  return (await response.json()) as ApiAnswer<T>;
}

async function instantQuery(query: string): Promise<ApiAnswer<{ resultType: string; result: Series[] }>> {
  return api('query', [['query', query]]);
}

/** A panel's query as Grafana sends it with $namespace set to NAMESPACE. */
function withVariables(expr: string): string {
  const query = expr.replaceAll('$namespace', NAMESPACE).replaceAll('$__rate_interval', RATE_INTERVAL);
  // A variable this test does not set would reach Prometheus as a parse error; name it instead.
  expect({ expr, variables: query.match(/\$\w+/g) ?? [] }).toEqual({ expr, variables: [] });
  return query;
}

/**
 * The metric names a query selects, each with the label names its own matchers use, and the label
 * names of its `by (…)` clauses. Enough PromQL for the dashboard's and the alerts' queries.
 */
function namesIn(query: string): { metrics: Map<string, string[]>; grouping: string[] } {
  const grouping: string[] = [];
  let rest = query.replace(/\b(?:by|without)\s*\(([^)]*)\)/g, (_, labels: string) => {
    grouping.push(...labels.split(',').map((label) => label.trim()));
    return ' ';
  });
  rest = rest.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const metrics = new Map<string, string[]>();
  for (const match of rest.matchAll(
    /([a-zA-Z_:][\w:]*)\s*(?:\{([^}]*)\})?\s*(?=[[)]|$|\s(?:or|and|unless)\b)/g,
  )) {
    const [, name, matchers] = match;
    if (['or', 'and', 'unless'].includes(name!)) continue;
    const labels = (matchers ?? '').split(',').flatMap((m) => /^\s*(\w+)\s*[=!]/.exec(m)?.[1] ?? []);
    metrics.set(name!, [...(metrics.get(name!) ?? []), ...labels]);
  }
  return { metrics, grouping };
}

/** The label names each scraped metric carries (over all its series). */
async function labelNamesOf(metric: string): Promise<Set<string>> {
  const answer = await api<Record<string, string>[]>('series', [['match[]', metric]]);
  if (answer.status !== 'success') throw new Error(`series of ${metric}: ${answer.error}`);
  return new Set(answer.data.flatMap((series) => Object.keys(series)));
}

/** What a query names that Prometheus does not have: unknown metrics, labels no selected series has. */
async function missingNames(query: string): Promise<string[]> {
  const { metrics, grouping } = namesIn(query);
  const missing: string[] = [];
  const everyLabel = new Set<string>();
  for (const [metric, labels] of metrics) {
    const names = await labelNamesOf(metric);
    if (names.size === 0) {
      missing.push(`metric ${metric}`);
      continue;
    }
    for (const label of labels) if (!names.has(label)) missing.push(`label ${label} of ${metric}`);
    for (const name of names) everyLabel.add(name);
  }
  for (const label of grouping) if (!everyLabel.has(label)) missing.push(`label ${label} (by)`);
  return missing;
}

/** Pays, errors and a stopped decoder: the traffic the panels show (MUST_HAVE_SERIES says which). */
async function driveTraffic(): Promise<void> {
  const statuses: number[] = [];
  // Completed, refused by the partner at once (…51), completed after a poll (…52), and one paid
  // from USD (payout quotes at fx): docs/api/sandbox.md "Test amounts".
  for (const [amount, extra] of [[10.0], [20.51], [20.52], [12.0, { wallet_currency: 'USD' }]] as const) {
    statuses.push((await payPix(system.gatewayUrl, tenant.apiKey, amount, extra)).status);
  }
  expect(statuses).toEqual([200, 200, 200, 200]);
  await causeClientErrors(system.gatewayUrl, tenant.apiKey);
  // Every pay ends in a webhook: delivered by the worker.
  await receiver.waitFor((all) => all.length >= statuses.length, 45_000);

  // The decoder stopped: resolving is a 503, the gateway's Decode calls end UNAVAILABLE. Twice, a
  // few scrapes apart, so the 503 counter moves between scrapes.
  const decoder = system.replicas('decoder')[0]!.process;
  await decoder.stop();
  const resolve = () => resolvePix(system.gatewayUrl, tenant.apiKey);
  expect((await resolve()).status).toBe(503);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect((await resolve()).status).toBe(503);
}

type ScrapeTarget = { labels: Record<string, string>; health: string; lastScrape: string; lastError: string };

/** Waits until every running component's target was scraped after `since` (the stopped decoder is down). */
async function scrapedAfter(since: number): Promise<ScrapeTarget[]> {
  return eventually(
    async () => {
      const answer = await api<{ activeTargets: ScrapeTarget[] }>('targets', [['state', 'active']]);
      if (answer.status !== 'success') throw new Error(answer.error);
      return answer.data.activeTargets;
    },
    (targets) =>
      targets.length === COMPONENTS.length &&
      targets
        .filter((target) => target.labels.job !== `${RELEASE}-decoder`)
        .every((target) => target.health === 'up' && Date.parse(target.lastScrape) > since),
    15_000,
  );
}

describe('the dashboard and the alerts against a real Prometheus scraping the system', () => {
  it('every panel query and alert expression evaluates, and the panels show the traffic', async () => {
    const panelQueries = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ key: `${panel.title} ${target.refId}`, target })),
    );
    expect(panelQueries.map((q) => q.key).sort()).toEqual(
      [...Object.keys(MUST_HAVE_SERIES), ...Object.keys(MAY_BE_EMPTY)].sort(),
    );

    // Every process scraped, with the ServiceMonitor's labels, before any traffic.
    const before = await scrapedAfter(Date.now());
    expect(before.map((t) => [t.labels.job, t.labels.namespace, t.health]).sort()).toEqual(
      COMPONENTS.map((c) => [`${RELEASE}-${c}`, NAMESPACE, 'up']).sort(),
    );

    await driveTraffic();
    // One more scrape of every live process after the last request (plus a second's margin for
    // a histogram recorded as its response ends).
    await scrapedAfter(Date.now() + 1_000);

    // The dashboard's $namespace lists the namespace (its label_values query, as Grafana asks it).
    const variable = dashboard.templating.list.find((v) => v.name === 'namespace')!;
    const matcher = /^label_values\((\w+), namespace\)$/.exec(variable.query!.query)?.[1];
    expect(matcher).toBeDefined();
    const namespaces = await api<string[]>('label/namespace/values', [['match[]', matcher!]]);
    expect(namespaces).toEqual({ status: 'success', data: [NAMESPACE] });

    const panels: Record<string, { status: string; error?: string; series: number; unlabelled: string[] }> =
      {};
    const missing: Record<string, string[]> = {};
    for (const { key, target } of panelQueries) {
      const query = withVariables(target.expr);
      const answer = await instantQuery(query);
      const result = answer.status === 'success' ? answer.data.result : [];
      // The legend's {{label}}s must be labels of every series the panel draws.
      const legendLabels = [...(target.legendFormat ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(
        (m) => m[1]!,
      );
      panels[key] = {
        status: answer.status,
        ...(answer.status === 'error' ? { error: answer.error } : {}),
        series: result.length,
        unlabelled: legendLabels.filter((label) => result.some((series) => !(label in series.metric))),
      };
      const names = await missingNames(query);
      if (names.length > 0) missing[key] = names;
    }
    const alertAnswers: Record<string, { status: string; error?: string }> = {};
    for (const alert of alerts) {
      const query = alert.expr.join('\n');
      const answer = await instantQuery(query);
      alertAnswers[alert.alert] = {
        status: answer.status,
        ...(answer.status === 'error' ? { error: answer.error } : {}),
      };
      const names = await missingNames(query);
      if (names.length > 0) missing[alert.alert] = names;
    }
    // Printed for whoever tunes the dashboard: what each panel drew.
    console.log(
      `prometheus: panels ${JSON.stringify(Object.fromEntries(Object.entries(panels).map(([k, v]) => [k, v.series])))}`,
    );

    expect(missing).toEqual({});
    expect(alertAnswers).toEqual(Object.fromEntries(alerts.map((a) => [a.alert, { status: 'success' }])));
    expect(panels).toEqual(
      Object.fromEntries(
        panelQueries.map(({ key }) => [
          key,
          { status: 'success', series: expect.any(Number), unlabelled: [] },
        ]),
      ),
    );
    expect(Object.keys(MUST_HAVE_SERIES).filter((key) => panels[key]!.series === 0)).toEqual([]);
  });
});
