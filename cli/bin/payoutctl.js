#!/usr/bin/env node

// Launcher for payoutctl (`npx payoutctl ...` from the repository root). Works with any Node the
// machine has (20+): runs the built CLI when cli/dist exists, otherwise the TypeScript sources
// through tsx, resolved from this file so the current directory does not matter.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const cliRoot = path.resolve(__dirname, '..');
const built = path.join(cliRoot, 'dist', 'main.js');

function tsxLoader() {
  const tsxPackage = require.resolve('tsx/package.json', { paths: [cliRoot] });
  return pathToFileURL(path.join(path.dirname(tsxPackage), 'dist', 'loader.mjs')).href;
}

const nodeArgs = fs.existsSync(built)
  ? [built]
  : ['--conditions=development', '--import', tsxLoader(), path.join(cliRoot, 'src', 'main.ts')];

const child = spawnSync(process.execPath, [...nodeArgs, ...process.argv.slice(2)], { stdio: 'inherit' });
if (child.error) {
  process.stderr.write(`${JSON.stringify({ error: { code: 'internal', message: child.error.message } })}\n`);
  process.exit(1);
}
process.exit(child.status ?? 1);
