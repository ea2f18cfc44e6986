// A test-only preload for a webhook process (webhooks.e2e.test.ts "kill -9 of the webhook
// service"): SIGKILL right after the dispatcher committed a batch's deliveries and before their
// offsets are committed, the moment that proves a redelivered message creates nothing twice
// (services/webhook/README.md "Dispatcher"). It observes the dispatcher's diagnostics channel,
// named in KILL_AFTER_DISPATCH_CHANNEL; plain Node strips the types, so it needs no loader.
import diagnosticsChannel from 'node:diagnostics_channel';
import type { DispatchedBatch } from '../../services/webhook/src/deliveries/dispatcher.js';

const channel = process.env['KILL_AFTER_DISPATCH_CHANNEL'];
if (channel) {
  diagnosticsChannel.subscribe(channel, (message) => {
    const batch = message as DispatchedBatch;
    if (batch.events === 0) return;
    process.stderr.write(
      `kill-after-dispatch: SIGKILL after ${batch.events} event(s), before the offset commit\n`,
    );
    process.kill(process.pid, 'SIGKILL');
  });
}
