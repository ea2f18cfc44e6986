import { runPayoutctl } from './run';

// Composition root of payoutctl: real argv, env and streams.
runPayoutctl(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: { code: 'internal', message: String(err) } })}\n`);
    process.exitCode = 1;
  },
);
