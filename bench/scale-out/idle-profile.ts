// Where a system's idle CPU goes (bench/README.md "scale-out"): starts the
// system as the scale-out bench does, with `replicas` of each component and every service and
// gateway writing a V8 CPU profile, makes one pay through each gateway, leaves it idle for
// `seconds`, stops it and names each profile's process; summarize the idle part of one with
// `bench/shared/profile-summary.ts <file> 15 <seconds>`.
//
//   scripts/node24 scripts/with-infra node --conditions=development --import tsx \
//     bench/scale-out/idle-profile.ts <dir> [replicas=2] [seconds=60]
import http from 'node:http';
import path from 'node:path';
import { startSystem } from '../../test-e2e/harness';
import { sendPay } from '../pay/load';
import { POOL, payBody, WEBHOOK_PRODUCTION_TIMINGS } from '../shared/pay-system';
import { cpuProfileEnv } from '../shared/results';
import { COMPONENTS } from './report';

async function main(): Promise<void> {
  const [dir, replicasArg, secondsArg] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: bench/scale-out/idle-profile.ts <dir> [replicas=2] [seconds=60]');
    process.exitCode = 2;
    return;
  }
  const replicas = Number(replicasArg ?? 2);
  const seconds = Number(secondsArg ?? 60);
  const profile = cpuProfileEnv(dir);
  const system = await startSystem({
    logLevel: 'warn',
    readyTimeoutMs: 300_000,
    replicas: Object.fromEntries(COMPONENTS.map((c) => [c, replicas])),
    gatewayEnv: { ...POOL, ...profile },
    serviceEnv: {
      decoder: { ...POOL, ...profile },
      fx: { ...POOL, ...profile },
      payout: { ...POOL, ...profile },
      webhook: { ...POOL, ...WEBHOOK_PRODUCTION_TIMINGS, ...profile },
    },
  });
  try {
    const tenant = await system.createTenant('bench-idle-profile', 1_000_000);
    const body = payBody();
    for (const gatewayUrl of system.gatewayUrls) {
      const answer = await sendPay(new http.Agent(), new URL('/v1/pay', gatewayUrl), tenant.apiKey, body);
      console.log(`pay through ${gatewayUrl}: ${answer.status}`);
    }
    for (const component of COMPONENTS)
      for (const replica of system.replicas(component))
        console.log(`${component}[${replica.index}] pid ${replica.process.pid}`);
    console.log(`idle for ${seconds} s...`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  } finally {
    await system.stop();
  }
  console.log(`profiles in ${path.resolve(dir)} (CPU.<date>.<time>.<pid>.*.cpuprofile)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
