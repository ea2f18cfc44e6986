// The chart's alerts as Prometheus evaluates them (docs/testing.md "Alerts and dashboard against
// Prometheus"): the PrometheusRule `helm template` renders from charts/qr-payout/alerts.json, its
// spec written as a rule file, passes `promtool check rules` and the unit tests of
// charts/qr-payout/alerts.promtool.yaml (`promtool test rules`), which hold, for every alert, a case
// where it fires and one where it does not. promtool comes from Debian's prometheus package, which
// `scripts/infra install` (npm test's system-deps stage) installs; without it this test fails.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';

const ROOT = path.resolve(__dirname, '..');
const CHART = path.join(ROOT, 'charts/qr-payout');
const PROMTOOL_TESTS = path.join(CHART, 'alerts.promtool.yaml');
/** The rule file the promtool tests name (rule_files), written beside a copy of them. */
const RULE_FILE = 'alerts.rules.yaml';
/** What the promtool tests expect in runbook_url (metrics.prometheusRule.runbookBaseUrl). */
const RUNBOOK_BASE_URL = 'https://runbooks.example/docs/runbooks.md';

type Alert = { alert: string; for: string; severity: string; expr: string[] };
type Rule = {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
};
type RuleFile = { groups: { name: string; rules: Rule[] }[] };
type AlertRuleTest = { eval_time: string; alertname: string; exp_alerts?: unknown[] | null };
type PromtoolTests = {
  rule_files: string[];
  tests: { name?: string; alert_rule_test?: AlertRuleTest[] }[];
};

const alerts = (JSON.parse(readFileSync(path.join(CHART, 'alerts.json'), 'utf8')) as { alerts: Alert[] })
  .alerts;

/** Runs a tool; a missing binary fails with what installs it rather than a bare ENOENT. */
function run(command: string, args: string[], installHint: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(`${command} not found on the PATH: ${installHint}`);
  }
  if (result.error) throw result.error;
  return result;
}

const PROMTOOL_HINT =
  'install it with `scripts/infra install` (Debian package prometheus; docs/testing.md "Alerts and dashboard against Prometheus")';

/** `promtool <args>`: its exit code and everything it printed. */
function promtool(...args: string[]): { status: number | null; output: string } {
  const result = run('promtool', args, PROMTOOL_HINT);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * The PrometheusRule's spec as `helm template` renders it, with the helm that `npm test` builds
 * into the tools cache (scripts/check-chart helm-path; docs/testing.md "Tools": built once, on a
 * machine's first run, which is why the test allows minutes).
 */
function renderedRuleFile(): RuleFile {
  const helmPath = run(
    path.join(ROOT, 'scripts/check-chart'),
    ['helm-path'],
    'scripts/check-chart is missing',
  );
  if (helmPath.status !== 0) throw new Error(`scripts/check-chart helm-path failed:\n${helmPath.stderr}`);
  const helm = helmPath.stdout.trim();
  const rendered = run(
    helm,
    [
      'template',
      'qr-payout',
      CHART,
      // Any Kubernetes version the chart supports (Chart.yaml kubeVersion).
      '--kube-version',
      '1.30.0',
      '--set',
      'metrics.prometheusRule.enabled=true',
      '--set',
      `metrics.prometheusRule.runbookBaseUrl=${RUNBOOK_BASE_URL}`,
      '--show-only',
      'templates/prometheusrule.yaml',
    ],
    'scripts/check-chart builds it',
  );
  if (rendered.status !== 0) throw new Error(`helm template failed:\n${rendered.stderr}`);
  const documents = parseAllDocuments(rendered.stdout)
    .map((document) => document.toJS() as { kind?: string; spec?: RuleFile } | null)
    .filter((document) => document?.kind === 'PrometheusRule');
  expect(documents).toHaveLength(1);
  return documents[0]!.spec!;
}

let workDir: string;
let ruleFile: RuleFile;
let promtoolTests: PromtoolTests;

beforeAll(() => {
  // First, so a machine without promtool fails on that, naming what installs it.
  promtool('--version');
  ruleFile = renderedRuleFile();
  workDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-alerts-'));
  writeFileSync(path.join(workDir, RULE_FILE), stringify(ruleFile));
  copyFileSync(PROMTOOL_TESTS, path.join(workDir, path.basename(PROMTOOL_TESTS)));
  promtoolTests = parse(readFileSync(PROMTOOL_TESTS, 'utf8')) as PromtoolTests;
}, 600_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the rendered PrometheusRule', () => {
  it('holds every alert of alerts.json, in order, with its expression, duration and severity', () => {
    const rules = ruleFile.groups.flatMap((group) => group.rules);
    expect(
      rules.map((rule) => ({
        alert: rule.alert,
        expr: rule.expr.trimEnd(),
        for: rule.for,
        severity: rule.labels.severity,
      })),
    ).toEqual(
      alerts.map((alert) => ({
        alert: alert.alert,
        expr: alert.expr.join('\n'),
        for: alert.for,
        severity: alert.severity,
      })),
    );
  });

  it('passes promtool check rules', () => {
    const { status, output } = promtool('check', 'rules', path.join(workDir, RULE_FILE));
    expect({ status, output }).toEqual({
      status: 0,
      output: expect.stringContaining(`${alerts.length} rules found`),
    });
  });

  it('passes the unit tests of alerts.promtool.yaml (promtool test rules)', () => {
    const { status, output } = promtool('test', 'rules', path.join(workDir, path.basename(PROMTOOL_TESTS)));
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });
});

describe('alerts.promtool.yaml', () => {
  it('tests the rendered rule file', () => {
    expect(promtoolTests.rule_files).toEqual([RULE_FILE]);
  });

  it('has, for every alert, a case where it fires and one where it does not, and names no other', () => {
    const cases = promtoolTests.tests.flatMap((group) => group.alert_rule_test ?? []);
    const firing = new Set(cases.filter((c) => (c.exp_alerts ?? []).length > 0).map((c) => c.alertname));
    const quiet = new Set(cases.filter((c) => (c.exp_alerts ?? []).length === 0).map((c) => c.alertname));
    const names = alerts.map((alert) => alert.alert);
    expect({
      withoutFiringCase: names.filter((name) => !firing.has(name)),
      withoutQuietCase: names.filter((name) => !quiet.has(name)),
      unknown: [...new Set(cases.map((c) => c.alertname))].filter((name) => !names.includes(name)),
    }).toEqual({ withoutFiringCase: [], withoutQuietCase: [], unknown: [] });
  });
});
