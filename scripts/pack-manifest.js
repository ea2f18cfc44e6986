#!/usr/bin/env node
// The manifest a published package ships (docs/testing.md "Packages"). In the repository, the
// `development` export condition points at src/*.ts, so the workspace's tests, `npm start` and the
// bundlers' dev servers run the sources without a build. src/ is not in the tarball, so the packed
// package.json must not name it: a consumer whose tooling sets `development` (Vite's and webpack's
// dev servers, `node --conditions=development`) would resolve a missing file.
//   node ../scripts/pack-manifest.js strip     (prepack, in the package's folder) writes package.json
//                                              without `development` and keeps the original beside it
//   node ../scripts/pack-manifest.js restore   (postpack) puts the original back
// `strip` first restores a copy left by a pack that failed between the two.

const fs = require('node:fs');

const MANIFEST = 'package.json';
const KEPT = 'package.json.workspace';
const CONDITION = 'development';

/** The exports map without the condition, at any depth. */
function withoutCondition(exports) {
  if (exports === null || typeof exports !== 'object' || Array.isArray(exports)) return exports;
  const out = {};
  for (const [key, value] of Object.entries(exports)) {
    if (key !== CONDITION) out[key] = withoutCondition(value);
  }
  return out;
}

function restore() {
  if (fs.existsSync(KEPT)) fs.renameSync(KEPT, MANIFEST);
}

function strip() {
  restore();
  const text = fs.readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  fs.writeFileSync(KEPT, text);
  manifest.exports = withoutCondition(manifest.exports);
  fs.writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else {
  process.stderr.write('usage: pack-manifest.js strip|restore\n');
  process.exit(2);
}
