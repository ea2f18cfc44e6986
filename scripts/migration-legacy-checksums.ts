// Records, in each migrations folder's legacy-checksums.json (file name → hex), the whole-file
// sha256 of every migration as it was at a git revision: the checksum the migrator stored before
// its checksums covered the SQL alone (platform README "PostgreSQL: `db`"). The migrator upgrades
// a database's old-style row only when it equals this value. Run it with the last revision whose
// migrations are the text databases applied:
//   scripts/node24 node --import tsx scripts/migration-legacy-checksums.ts 42e2e42
// An entry already recorded is never changed (a different value is an error); a migration added
// after the upgrade needs none, since databases record its new-style checksum.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const MIGRATION = /(^|\/)migrations\/\d{4}_[a-z0-9_]+\.sql$/;

function git(args: string[]): Buffer {
  return execFileSync('git', args, { maxBuffer: 64 * 1024 * 1024 });
}

const rev = process.argv[2];
if (!rev) {
  console.error('usage: migration-legacy-checksums.ts <git revision>');
  process.exit(2);
}

const byFolder = new Map<string, Record<string, string>>();
for (const file of git(['ls-tree', '-r', '-z', '--name-only', rev]).toString('utf8').split('\0')) {
  if (!MIGRATION.test(file)) continue;
  const sha256 = createHash('sha256')
    .update(git(['show', `${rev}:${file}`]))
    .digest('hex');
  const folder = dirname(file);
  byFolder.set(folder, { ...byFolder.get(folder), [basename(file)]: sha256 });
}

let failed = false;
for (const [folder, computed] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
  const target = join(folder, 'legacy-checksums.json');
  const recorded: Record<string, string> = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : {};
  for (const [name, sha256] of Object.entries(computed)) {
    if (recorded[name] !== undefined && recorded[name] !== sha256) {
      console.error(`${folder}/${name}: recorded ${recorded[name]}, ${rev} has ${sha256}; left as recorded`);
      failed = true;
    } else {
      recorded[name] ??= sha256;
    }
  }
  const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`${target}: ${Object.keys(sorted).length} migrations`);
}
process.exit(failed ? 1 : 0);
