import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

// sandbox/README.md "Limits": a first start runs PostgreSQL's initdb, the slowest step of the
// sandbox (seconds of WebAssembly per instance, and the four instances share two cores). The
// clusters initdb makes are identical, so it runs once and every empty folder gets a file copy of
// it; each instance then creates its own schema on top, as before. The cluster is also kept in a
// cache folder outside the clone (named by the PGlite version and settings), so a new clone or a
// deleted `.data/` copies files instead of running initdb again.

/** Creates a fresh, closed PostgreSQL data directory at the given path (PGlite create + close). */
export type InitDataDir = (dataDir: string) => Promise<void>;

export type InitdbOnceOptions = {
  /** Runs initdb into a folder. */
  init: InitDataDir;
  /** A cluster made by `init` earlier, reused when present, written when not. Omit for none. */
  cacheDir?: string;
};

/** True when the folder is missing or empty: PGlite would run initdb there. */
async function isEmpty(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries.length === 0;
}

/** Copies `from` to `to` through `<to>.<pid>.partial`, so an interrupted copy is never taken for a cluster. */
async function copyDir(from: string, to: string): Promise<void> {
  const partial = `${to}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.dirname(to), { recursive: true });
  await cp(from, partial, { recursive: true });
  await rm(to, { recursive: true, force: true });
  await rename(partial, to);
}

/** A cluster folder to copy from: the cache's, or one `init` makes now (and the cache keeps). */
async function templateCluster(scratch: string, { init, cacheDir }: InitdbOnceOptions): Promise<string> {
  if (cacheDir && !(await isEmpty(cacheDir))) return cacheDir;
  await rm(scratch, { recursive: true, force: true });
  await init(scratch);
  // A cache that cannot be written (read-only home) only costs the next first start its initdb.
  if (cacheDir) await copyDir(scratch, cacheDir).catch(() => undefined);
  return scratch;
}

/**
 * Fills every folder of `dataDirs` that is missing or empty with a copy of one initdb's cluster.
 * Folders that hold anything are left to PGlite as they are. Resolves with how many it filled.
 */
export async function initdbOnce(dataDirs: readonly string[], opts: InitdbOnceOptions): Promise<number> {
  const empty: string[] = [];
  for (const dir of dataDirs) if (await isEmpty(dir)) empty.push(dir);
  const first = empty[0];
  if (first === undefined) return 0;
  const scratch = path.join(path.dirname(first), `.initdb-${process.pid}`);
  try {
    const template = await templateCluster(scratch, opts);
    for (const dir of empty) await copyDir(template, dir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return empty.length;
}
