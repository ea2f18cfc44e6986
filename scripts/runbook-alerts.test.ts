// One definition per alert: the chart's PrometheusRule (charts/qr-payout/alerts.json) and the
// runbooks (docs/runbooks.md) hold the same PromQL for each alert, and every runbook section with a
// query ships as an alert.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

type Alert = {
  alert: string;
  runbook: string;
  anchor: string;
  for: string;
  severity: string;
  expr: string[];
};

const alerts = (
  JSON.parse(readFileSync(path.join(ROOT, 'charts/qr-payout/alerts.json'), 'utf8')) as { alerts: Alert[] }
).alerts;

/** Each "## " section of the runbooks that holds a ```promql block: title → its query. */
function runbookQueries(): Map<string, string> {
  const text = readFileSync(path.join(ROOT, 'docs/runbooks.md'), 'utf8');
  const queries = new Map<string, string>();
  for (const section of text.split(/^## /m).slice(1)) {
    const title = section.slice(0, section.indexOf('\n')).trim();
    const query = /```promql\n([\s\S]*?)\n```/.exec(section)?.[1];
    if (query !== undefined) queries.set(title, query);
  }
  return queries;
}

/** GitHub's anchor for a heading: lower case, spaces to hyphens, punctuation dropped. */
function anchorOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

describe('alerts.json and docs/runbooks.md', () => {
  const queries = runbookQueries();

  it('give every alert the query of its runbook section, and its anchor', () => {
    for (const alert of alerts) {
      expect({ alert: alert.alert, expr: alert.expr.join('\n') }).toEqual({
        alert: alert.alert,
        expr: queries.get(alert.runbook),
      });
      expect(alert.anchor).toBe(anchorOf(alert.runbook));
    }
  });

  it('ship every runbook query as an alert, once', () => {
    expect(alerts.map((a) => a.runbook).sort()).toEqual([...queries.keys()].sort());
    expect(new Set(alerts.map((a) => a.alert)).size).toBe(alerts.length);
  });

  it('give each alert a duration and a severity Alertmanager routes on', () => {
    for (const alert of alerts) {
      expect(alert.for).toMatch(/^\d+[smh]$/);
      expect(['page', 'warning']).toContain(alert.severity);
    }
  });
});
