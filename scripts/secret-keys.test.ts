// Least privilege (charts/qr-payout/secret-keys.json): each component's container gets exactly the
// Secret keys its config reads, so the list in the chart and the config in the code must agree.
// A key is "read" by a config that names it ('KEY') or, for the Kafka SASL user and password, that
// takes platform's kafkaSettings(). Every variable a config marks secret must be on some list.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const CONFIGS: Record<string, string> = {
  gateway: 'gateway/src/config.ts',
  decoder: 'services/decoder/src/config.ts',
  fx: 'services/fx/src/config.ts',
  payout: 'services/payout/src/config.ts',
  webhook: 'services/webhook/src/config.ts',
};
const KAFKA_SASL = ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'];

const lists = (
  JSON.parse(readFileSync(path.join(ROOT, 'charts/qr-payout/secret-keys.json'), 'utf8')) as {
    components: Record<string, Array<{ key: string; optional?: boolean }>>;
  }
).components;
const source = (component: string) => readFileSync(path.join(ROOT, CONFIGS[component]!), 'utf8');

function reads(component: string, key: string): boolean {
  const text = source(component);
  return text.includes(`'${key}'`) || (KAFKA_SASL.includes(key) && text.includes('kafkaSettings()'));
}

describe('charts/qr-payout/secret-keys.json', () => {
  const listed = new Set(Object.values(lists).flatMap((keys) => keys.map((k) => k.key)));

  it('lists for each component exactly the Secret keys its config reads', () => {
    for (const component of Object.keys(CONFIGS)) {
      const expected = [...listed].filter((key) => reads(component, key)).sort();
      expect({ component, keys: (lists[component] ?? []).map((k) => k.key).sort() }).toEqual({
        component,
        keys: expected,
      });
    }
  });

  it('lists every variable a config marks secret', () => {
    for (const component of Object.keys(CONFIGS))
      for (const m of source(component).matchAll(/\(\s*'([A-Z0-9_]+)',\s*\{[^}]*secret: true/g))
        expect({ component, key: m[1], listed: listed.has(m[1]!) }).toEqual({
          component,
          key: m[1],
          listed: true,
        });
  });

  it("gives the migration Jobs the database, and payout's Kafka user for the events topic", () => {
    expect(lists.migrate?.map((k) => k.key).sort()).toEqual(['DATABASE_URL', ...KAFKA_SASL].sort());
  });
});
