// One copy of each OpenTelemetry package (the root's caret ranges against sdk-node's
// exact pins installed @opentelemetry/core twice, 18 copies in all, in every image). The root pins
// the versions sdk-node pins; this reads package-lock.json, which is what `npm ci` installs.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const lock = JSON.parse(readFileSync(path.resolve(__dirname, '../package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; link?: boolean }>;
};

test('package-lock.json installs one version of each @opentelemetry package', () => {
  const versions = new Map<string, Set<string>>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    const name = /node_modules\/(@opentelemetry\/[^/]+)$/.exec(where)?.[1];
    if (!name || entry.link || !entry.version) continue;
    versions.set(name, (versions.get(name) ?? new Set()).add(entry.version));
  }
  expect(versions.size).toBeGreaterThan(10);
  const several = [...versions]
    .filter(([, v]) => v.size > 1)
    .map(([name, v]) => `${name}: ${[...v].join(', ')}`);
  expect(several).toEqual([]);
});
