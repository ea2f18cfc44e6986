import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initdbOnce } from './initdb-once';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'initdb-once-'));
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

/** A stand-in for initdb: writes one file naming the run, and counts its runs. */
function fakeInitdb() {
  const runs: string[] = [];
  return {
    runs,
    async init(dir: string) {
      runs.push(dir);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'PG_VERSION'), `run ${runs.length}`);
    },
  };
}

describe('initdbOnce', () => {
  it('runs initdb once for every empty folder and leaves no scratch or partial copy behind', async () => {
    const initdb = fakeInitdb();
    const dirs = ['gateway', 'fx', 'payout'].map((s) => path.join(tmp, 'pglite', s));
    await mkdir(dirs[1] as string, { recursive: true }); // an empty folder counts as missing

    expect(await initdbOnce(dirs, { init: initdb.init })).toBe(3);
    expect(initdb.runs).toHaveLength(1);
    for (const dir of dirs) expect(await readFile(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('run 1');
    expect((await readdir(path.join(tmp, 'pglite'))).sort()).toEqual(['fx', 'gateway', 'payout']);
  });

  it('leaves a folder that holds anything to PGlite, and does nothing when none is empty', async () => {
    const initdb = fakeInitdb();
    const kept = path.join(tmp, 'pglite', 'gateway');
    await mkdir(kept, { recursive: true });
    await writeFile(path.join(kept, 'PG_VERSION'), 'existing');

    expect(await initdbOnce([kept], { init: initdb.init })).toBe(0);
    expect(initdb.runs).toHaveLength(0);
    expect(await readFile(path.join(kept, 'PG_VERSION'), 'utf8')).toBe('existing');
  });

  it('keeps the cluster in the cache folder, and a later first start copies it without initdb', async () => {
    const initdb = fakeInitdb();
    const cacheDir = path.join(tmp, 'cache', 'pglite-initdb');
    await initdbOnce([path.join(tmp, 'one', 'fx')], { init: initdb.init, cacheDir });
    expect(await readFile(path.join(cacheDir, 'PG_VERSION'), 'utf8')).toBe('run 1');

    const second = path.join(tmp, 'two', 'fx');
    expect(await initdbOnce([second], { init: initdb.init, cacheDir })).toBe(1);
    expect(initdb.runs).toHaveLength(1);
    expect(await readFile(path.join(second, 'PG_VERSION'), 'utf8')).toBe('run 1');
  });
});

describe('initdbOnce without a cache', () => {
  it('makes the cluster in the last empty folder and copies it to the others', async () => {
    const initdb = fakeInitdb();
    const dirs = ['gateway', 'fx'].map((s) => path.join(tmp, 'pglite', s));
    expect(await initdbOnce(dirs, { init: initdb.init })).toBe(2);
    expect(initdb.runs).toEqual([expect.stringContaining(path.join(tmp, 'pglite', 'fx'))]);
    for (const dir of dirs) expect(await readFile(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('run 1');
  });
});

describe('initdbOnce with a cache another start fills meanwhile', () => {
  it('keeps the cluster already there and copies it', async () => {
    const cacheDir = path.join(tmp, 'cache');
    const init = async (dir: string) => {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'PG_VERSION'), 'ours');
      await mkdir(cacheDir, { recursive: true }); // the other start's cluster lands first
      await writeFile(path.join(cacheDir, 'PG_VERSION'), 'theirs');
    };
    const dir = path.join(tmp, 'pglite', 'fx');
    expect(await initdbOnce([dir], { init, cacheDir })).toBe(1);
    expect(await readFile(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('theirs');
    expect(await readFile(path.join(cacheDir, 'PG_VERSION'), 'utf8')).toBe('theirs');
  });
});

describe('initdbOnce with a cache that fails', () => {
  const fsError = (code: string) => Object.assign(new Error(`${code}: cache`), { code });

  it.each(['EACCES', 'EROFS', 'ENOSPC'])(
    'makes its own cluster when the cache cannot be written (%s)',
    async (code) => {
      const cacheDir = path.join(tmp, 'cache');
      const initdb = fakeInitdb();
      const init = async (dir: string) => {
        if (dir.startsWith(cacheDir)) throw fsError(code);
        await initdb.init(dir);
      };
      const dirs = ['gateway', 'fx'].map((s) => path.join(tmp, 'pglite', s));
      expect(await initdbOnce(dirs, { init, cacheDir })).toBe(2);
      expect(initdb.runs).toEqual([expect.stringContaining(path.join(tmp, 'pglite', 'fx'))]);
      for (const dir of dirs) expect(await readFile(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('run 1');
    },
  );

  it('surfaces an initdb failure instead of running initdb again elsewhere', async () => {
    const cacheDir = path.join(tmp, 'cache');
    const runs: string[] = [];
    const init = async (dir: string) => {
      runs.push(dir);
      throw new Error('initdb: out of memory');
    };
    const dir = path.join(tmp, 'pglite', 'fx');
    await expect(initdbOnce([dir], { init, cacheDir })).rejects.toThrow('initdb: out of memory');
    expect(runs).toHaveLength(1);
    expect(await readdir(tmp)).toEqual([]);
  });
});
