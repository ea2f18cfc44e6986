// scripts/sandbox-prepare (root postinstall, after `npm ci`): makes the sandbox's initdb cluster
// in the tools cache ahead of the first `npm start`, which then copies files instead of running
// initdb (sandbox/README.md "Limits"). One line says it is ready, so `npm ci`'s last words are not
// a silent hook.
import { prepareInitdbCache } from './embedded-postgres';

prepareInitdbCache(process.env).then(
  (ready) => {
    if (ready) process.stdout.write('sandbox: database template ready; npm start will not run initdb\n');
    else process.stderr.write('sandbox: no writable tools cache; the first npm start runs initdb\n');
  },
  (err: unknown) => {
    process.stderr.write(`sandbox: initdb failed (${err instanceof Error ? err.message : String(err)})\n`);
    process.exitCode = 1;
  },
);
