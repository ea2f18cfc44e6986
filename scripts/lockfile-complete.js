#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional packages (darwin, win32, musl, ...)
// that npm leaves out when the registry it resolves against does not serve them. Without those
// entries `npm ci` refuses the lock ("Missing: @swc/core-darwin-arm64@ from lock file") even though
// it would never install them on Linux x64. An added entry records only the pinned version and
// `optional: true`; npm skips it on install because its fetch is optional.
// Run after any `npm install` that rewrites the lock: `node scripts/lockfile-complete.js`.
// `--check` exits 1 when entries are missing (used by the lint stage).

const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** Where npm would look for `name` when required from the package at `from` (a lock key). */
function resolves(from, name) {
  let dir = from;
  for (;;) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

const added = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(key, name)) continue;
    // Only exact pins can be completed without asking the registry; platform binaries always are.
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
      console.error(`lockfile-complete: ${key} -> ${name}@${spec} is not an exact version; skipped`);
      continue;
    }
    const stub = { version: spec, optional: true };
    if (entry.dev) stub.dev = true;
    packages[`node_modules/${name}`] = stub;
    added.push(`${name}@${spec}`);
  }
}

if (process.argv.includes('--check')) {
  if (added.length > 0) {
    console.error(
      `package-lock.json lacks ${added.length} optional platform entries; run: node scripts/lockfile-complete.js`,
    );
    process.exit(1);
  }
  process.exit(0);
}
if (added.length > 0) {
  // Keep npm's key order (sorted) so the diff stays small.
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  );
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`lockfile-complete: ${added.length} entries added`);
