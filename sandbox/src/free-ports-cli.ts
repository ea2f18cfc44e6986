// `node --import tsx sandbox/src/free-ports-cli.ts <count>`: prints `count` distinct free loopback
// ports on one line, for the shell scripts that start a sandbox (scripts/lib/sandbox.sh), so the
// rule for picking a port is free-port.ts's alone.
import { freePorts } from './free-port';

const count = Number(process.argv[2] ?? '1');
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write(`free-ports-cli: the count must be a positive integer, not ${process.argv[2]}\n`);
  process.exit(2);
}
freePorts(count).then(
  (ports) => process.stdout.write(`${ports.join(' ')}\n`),
  (err: unknown) => {
    process.stderr.write(`free-ports-cli: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
