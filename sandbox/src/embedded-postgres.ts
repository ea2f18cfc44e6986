import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { fillInitdbCache, initdbOnce } from './initdb-once';

// PGlite is real PostgreSQL compiled to WebAssembly, but it is ONE session: every socket
// connection shares the same backend, so a `SET search_path` by one pool is seen by every other
// pool. Each service sets its own search_path on connect (platform createPgPool), so services
// cannot share an instance; the sandbox runs one instance per owned schema instead.

export type EmbeddedPostgresOptions = {
  /** Folder of this instance's files; created when missing. Omit for an in-memory database. */
  dataDir?: string;
  /** Schema this instance serves: created, and set as the session's search_path. */
  schema: string;
  /** Socket connections accepted at once; must exceed the pool size of every client (default 20). */
  maxConnections?: number;
  /** PostgreSQL's WebAssembly compiled once for every instance of a process (loadPgliteAssets). */
  assets?: PgliteAssets;
};

export type EmbeddedPostgres = {
  readonly schema: string;
  /** A `postgres://` URL for the stock `pg` client, on 127.0.0.1 and a free port. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, drops open ones, then closes PGlite (flushing to disk). */
  close(): Promise<void>;
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// Small shared buffers: four instances run in one sandbox process, and the data is tiny.
const POSTGRES_CONF = ['shared_buffers=16MB'];

/** What every PGlite instance loads: PostgreSQL compiled to WebAssembly and its share/ files. */
export type PgliteAssets = Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>>;

// Node's WebAssembly global, which the project's type libraries (es2024, node) leave undeclared.
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<PgliteAssets['pgliteWasmModule']> };
};

/**
 * Reads and compiles PGlite's WebAssembly once: left to PGlite, each instance compiles its own
 * 9 MB module, and four of them on two busy cores took a second longer to start
 * (sandbox/README.md "Limits").
 */
export async function loadPgliteAssets(): Promise<PgliteAssets> {
  const dist = path.dirname(require.resolve('@electric-sql/pglite'));
  const [bytes, data] = await Promise.all([
    readFile(path.join(dist, 'pglite.wasm')),
    readFile(path.join(dist, 'pglite.data')),
  ]);
  return { pgliteWasmModule: await wasm.compile(bytes), fsBundle: new Blob([data]) };
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  if (!SCHEMA_NAME.test(opts.schema)) throw new Error(`invalid schema name: ${opts.schema}`);
  if (opts.dataDir) await mkdir(opts.dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir: opts.dataDir, postgresqlconf: POSTGRES_CONF, ...opts.assets });
  let server: PGLiteSocketServer | undefined;
  try {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"; SET search_path TO "${opts.schema}"`);
    server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: 0,
      maxConnections: opts.maxConnections ?? 20,
    });
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  const running = server;
  const port = Number(running.getServerConn().split(':').at(-1));
  let closing: Promise<void> | undefined;
  return {
    schema: opts.schema,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    close() {
      closing ??= running.stop().finally(() => db.close());
      return closing;
    },
  };
}

export type EmbeddedDatabases = {
  /** URL of the instance that serves `schema`. */
  urlFor(schema: string): string;
  readonly instances: readonly EmbeddedPostgres[];
  close(): Promise<void>;
};

/**
 * Where the first initdb's cluster is kept for the next first start: the tools cache of
 * docs/testing.md "Tools", one folder per PGlite version and settings. scripts/lib/tools-cache.sh
 * owns where that cache is and hands it over as QR_PAYOUT_TOOLS (scripts/node24, hence `npm start`,
 * sources it); a sandbox started without it keeps no cache.
 */
export function initdbCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const tools = env.QR_PAYOUT_TOOLS;
  if (!tools) return undefined;
  const pglite = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(pglite, 'utf8')) as { version: string };
  const settings = createHash('sha256').update(POSTGRES_CONF.join('\n')).digest('hex').slice(0, 8);
  return path.join(tools, `pglite-${version}-initdb-${settings}`);
}

/** A fresh data directory: PGlite runs initdb into an empty folder. */
function initDataDir(assets?: PgliteAssets) {
  return async (dataDir: string): Promise<void> => {
    await mkdir(dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir, postgresqlconf: POSTGRES_CONF, ...assets });
    await db.close();
  };
}

/**
 * Fills the initdb cache (initdbCacheDir) unless it holds a cluster, so the first `npm start`
 * copies files (scripts/sandbox-prepare, after `npm ci`). Resolves false when there is no cache or
 * it cannot be written.
 */
export async function prepareInitdbCache(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const cacheDir = initdbCacheDir(env);
  return cacheDir !== undefined && fillInitdbCache(cacheDir, initDataDir());
}

/**
 * One instance per schema, under `<dataDir>/<schema>` (or in memory when dataDir is omitted),
 * started together: the first start runs initdb once for all of them (initdb-once.ts, seconds), a
 * restart takes well under one; with `initdbCacheDir`, a later first start copies files instead.
 */
export async function startEmbeddedDatabases(opts: {
  dataDir?: string;
  schemas: readonly string[];
  maxConnections?: number;
  /** Keeps the first initdb's cluster for later first starts (initdbCacheDir()); omit for none. */
  initdbCacheDir?: string;
}): Promise<EmbeddedDatabases> {
  const root = opts.dataDir;
  const assets = await loadPgliteAssets();
  if (root) {
    const dirs = opts.schemas.map((schema) => path.join(root, schema));
    await initdbOnce(dirs, { init: initDataDir(assets), cacheDir: opts.initdbCacheDir });
  }
  const results = await Promise.allSettled(
    opts.schemas.map((schema) =>
      startEmbeddedPostgres({
        schema,
        dataDir: opts.dataDir ? path.join(opts.dataDir, schema) : undefined,
        maxConnections: opts.maxConnections,
        assets,
      }),
    ),
  );
  const instances = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const closeAll = async () => {
    const closed = await Promise.allSettled(instances.map((i) => i.close()));
    const failed = closed.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await closeAll().catch(() => undefined);
    throw failed.reason;
  }
  return {
    instances,
    urlFor(schema) {
      const found = instances.find((i) => i.schema === schema);
      if (!found) throw new Error(`no embedded database for schema ${schema}`);
      return found.url;
    },
    close: closeAll,
  };
}
