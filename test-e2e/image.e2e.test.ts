// The image, built from deploy/Dockerfile without a Docker engine (scripts/image; docs/adr/
// 0017-image-built-by-buildah.md), run as the chart runs it (docs/testing.md "The image"): every
// deployable starts from the image's filesystem (read-only, the image's user, its ENTRYPOINT and
// the chart's argument) against the test PostgreSQL, Redis and Kafka and answers its health check;
// a payment goes through them; the migration entry points and payoutctl work from the image; and
// the image holds no dev or sandbox-only package and one version of each OpenTelemetry package.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { testInfra } from '@qr-payout/test-kit/infra';
import {
  builtEntryPoint,
  ENTRY_POINTS,
  REPO_ROOT,
  type System,
  startSystem,
  type TestTenant,
} from './harness';
import { createRunDatabase } from './harness/database';
import { call } from './support/http';
import { type ImageRoot, imageLauncher, makeImageRoot, releaseImageRoot, runInImage } from './support/image';
import { type PublicTransaction, payPix } from './support/pay';

// Building the image (when `npm test`'s image stage has not) takes minutes.
jest.setTimeout(120_000);

let image: ImageRoot;
let system: System;
let tenant: TestTenant;

beforeAll(async () => {
  image = makeImageRoot();
  system = await startSystem({
    launcher: imageLauncher(image),
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000' } },
  });
  tenant = await system.createTenant(`e2e-image-${randomBytes(4).toString('hex')}`);
}, 1_200_000);

afterAll(async () => {
  await system?.stop();
  if (image) releaseImageRoot(image);
}, 60_000);

/** The uid and gid a process runs as, from /proc. */
function idsOf(pid: number): { uid: string; gid: string } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? '';
  return { uid: field('Uid'), gid: field('Gid') };
}

describe('every entry point, from the image', () => {
  test('runs in the image root, as its user, and answered its health check', () => {
    const [uid, gid] = image.user.split(':');
    const started = system.processes.map((proc) => proc.name.replace(/-\d+$/, '')).sort();
    expect(started).toEqual(Object.keys(ENTRY_POINTS).sort());
    for (const proc of system.processes) {
      // startSystem waited for each one's health check (gRPC SERVING, or GET /readyz 200).
      expect(proc.hasExited()).toBe(false);
      expect({ name: proc.name, root: readlinkSync(`/proc/${proc.pid}/root`) }).toEqual({
        name: proc.name,
        root: image.root,
      });
      expect({ name: proc.name, ...idsOf(proc.pid) }).toEqual({ name: proc.name, uid, gid });
      expect(readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8').split('\0')).toEqual(
        expect.arrayContaining([...image.entrypoint]),
      );
    }
  });

  test('pay a Pix QR through them, to completed', async () => {
    const res = await payPix(system.gatewayUrl, tenant.apiKey, 10);
    expect(res.status).toBe(200);
    const txn = res.json?.transaction as PublicTransaction;
    expect(txn.status).toBe('completed');
    const read = await call(system.gatewayUrl, `/v1/transactions/${txn.id}`, { apiKey: tenant.apiKey });
    expect(read.status).toBe(200);
    expect((read.json?.transaction as PublicTransaction | undefined)?.status).toBe('completed');
  });

  test("the migration entry points (the chart's hook Jobs) migrate an empty database", async () => {
    const database = await createRunDatabase(testInfra.databaseUrl);
    try {
      // charts/qr-payout/templates/migrations.yaml: gateway, fx, payout, webhook, in that order.
      for (const component of ['gateway', 'fx', 'payout', 'webhook'] as const) {
        const main = builtEntryPoint(ENTRY_POINTS[component]);
        const run = await runInImage(image, [...image.entrypoint, main, 'migrate'], {
          DATABASE_URL: database.url,
          OTEL_SDK_DISABLED: 'true',
          LOG_LEVEL: 'warn',
        });
        expect({ component, code: run.code, stderr: run.stderr }).toEqual({ component, code: 0, stderr: '' });
      }
    } finally {
      await database.drop();
    }
  });
});

describe('payoutctl, from the image', () => {
  test('--help prints the usage', async () => {
    const run = await runInImage(image, ['node', 'cli/bin/payoutctl.js', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: payoutctl COMMAND SUBCOMMAND/m);
  });

  test('tenant list answers from the admin API, with the tenant this test made', async () => {
    const run = await runInImage(
      image,
      ['node', 'cli/bin/payoutctl.js', 'tenant', 'list', '--admin-url', system.adminUrl],
      {
        PAYOUT_ADMIN_TOKEN: system.adminToken,
      },
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const listed = JSON.parse(run.stdout) as { tenants: { id: string }[] };
    expect(listed.tenants.map((t) => t.id)).toContain(tenant.tenantId);
  });
});

/** Every package installed under the image's /app/node_modules (nested ones too), by its path from /app. */
function installedPackages(appDir: string): Map<string, { name: string; version: string }> {
  const found = new Map<string, { name: string; version: string }>();
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@')
        ? readdirSync(path.join(modules, entry)).map((name) => path.join(modules, entry, name))
        : [path.join(modules, entry)];
      for (const dir of dirs) {
        const manifest = path.join(dir, 'package.json');
        if (!existsSync(manifest)) continue;
        const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
          name: string;
          version: string;
        };
        found.set(path.relative(appDir, dir), { name, version });
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  visit(path.join(appDir, 'node_modules'));
  return found;
}

describe("the image's packages", () => {
  const appDir = () => path.join(image.root, image.workingDir);

  test('hold no dev dependency and nothing only the sandbox uses', () => {
    // The image's install follows package-lock.json's layout, so each path is an entry of it.
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const sandbox = JSON.parse(readFileSync(path.join(REPO_ROOT, 'sandbox/package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const sandboxOnly = Object.keys(sandbox.dependencies ?? {});
    expect(sandboxOnly).toContain('@electric-sql/pglite');
    const installed = [...installedPackages(appDir())];
    expect(installed.length).toBeGreaterThan(50);
    const unexpected = installed.filter(
      ([where, { name }]) =>
        lock.packages[where] === undefined || lock.packages[where].dev || sandboxOnly.includes(name),
    );
    expect(unexpected.map(([where]) => where)).toEqual([]);
    const names = installed.map(([, { name }]) => name);
    for (const tool of ['typescript', 'tsx', 'jest', '@biomejs/biome', '@swc/core'])
      expect(names).not.toContain(tool);
  });

  test('link only the deployable workspaces, each to a directory the image has', () => {
    const workspaces = path.join(appDir(), 'node_modules/@qr-payout');
    const linked = readdirSync(workspaces).sort();
    expect(linked).toEqual([
      'cli',
      'decoder',
      'fx',
      'gateway',
      'partner-sim',
      'payout',
      'platform',
      'proto',
      'webhook',
      'webhook-receiver',
    ]);
    // Each link resolves inside the image to that workspace's own package (a dangling or escaping
    // link would throw or point elsewhere).
    for (const name of linked) {
      const target = realpathSync(path.join(workspaces, name));
      expect(target.startsWith(`${image.root}/`)).toBe(true);
      const manifest = JSON.parse(readFileSync(path.join(target, 'package.json'), 'utf8')) as {
        name: string;
      };
      expect(manifest.name).toBe(`@qr-payout/${name}`);
    }
  });

  test('one version of each OpenTelemetry package', () => {
    const versions = new Map<string, Set<string>>();
    for (const { name, version } of installedPackages(appDir()).values()) {
      if (name.startsWith('@opentelemetry/'))
        versions.set(name, (versions.get(name) ?? new Set()).add(version));
    }
    expect(versions.size).toBeGreaterThan(10);
    expect(
      [...versions].filter(([, seen]) => seen.size > 1).map(([name, seen]) => [name, [...seen]]),
    ).toEqual([]);
  });
});
