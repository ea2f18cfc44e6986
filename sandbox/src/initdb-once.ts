import { cpSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
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

/** Moves `from` to `to`, which must be missing or empty (rename refuses a full one: ENOTEMPTY). */
async function moveDir(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await rename(from, to);
}

/** Copies `from` to `to` through `<to>.<pid>.partial`, so an interrupted copy is never taken for a cluster. */
async function copyDir(from: string, to: string): Promise<void> {
  const partial = `${to}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.dirname(to), { recursive: true });
  // cpSync: twice as fast as the promise cp on a thousand small files, and nothing else runs yet.
  cpSync(from, partial, { recursive: true });
  await moveDir(partial, to);
}

/** Runs `init` into a scratch folder and moves the result to `to` (never a half-made cluster there). */
async function initInto(to: string, init: InitDataDir): Promise<void> {
  const scratch = `${to}.${process.pid}.initdb`;
  await rm(scratch, { recursive: true, force: true });
  try {
    await init(scratch);
    await moveDir(scratch, to);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

// Errors that say the cache's disk or folder cannot take the cluster: the start falls back to an
// initdb of its own. Any other error (initdb itself failing) is the start's and surfaces.
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/**
 * Fills `cacheDir` with a cluster when it holds none. True when it holds one: kept earlier, made
 * now, or moved there meanwhile by another first start (ENOTEMPTY, EEXIST). False when the cache
 * cannot be written (read-only or full home): a start then makes its own.
 */
export async function fillInitdbCache(cacheDir: string, init: InitDataDir): Promise<boolean> {
  try {
    if (!(await isEmpty(cacheDir))) return true;
    await initInto(cacheDir, init);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return true;
    if (UNWRITABLE.has(code)) return false;
    throw err;
  }
}

/** The cluster the empty folders copy: the cache's when it holds or takes one, else a new one in `last`. */
async function templateFor(last: string, init: InitDataDir, cacheDir: string | undefined): Promise<string> {
  if (cacheDir && (await fillInitdbCache(cacheDir, init))) return cacheDir;
  await initInto(last, init);
  return last;
}

/**
 * Fills every folder of `dataDirs` that is missing or empty with a copy of one initdb's cluster:
 * the cache's when it holds one, else a new one made into the cache (or, without a writable cache,
 * into the last empty folder, the others copying it). Every byte written is written once per folder
 * (the disk, not the CPU, bounds this step on a busy machine). Folders that hold anything are left
 * to PGlite as they are. Resolves with how many it filled.
 */
export async function initdbOnce(
  dataDirs: readonly string[],
  { init, cacheDir }: InitdbOnceOptions,
): Promise<number> {
  const empty: string[] = [];
  for (const dir of dataDirs) if (await isEmpty(dir)) empty.push(dir);
  const last = empty.at(-1);
  if (last === undefined) return 0;
  const template = await templateFor(last, init, cacheDir);
  for (const dir of empty) if (dir !== template) await copyDir(template, dir);
  return empty.length;
}
