// TEMP (not committed): resolve load only, with optional profiles.
import path from 'node:path';
import { startSystem } from '../test-e2e/harness';
import { MERCHANT_QRS } from '../test-e2e/support/merchant-qrs';
import { percentile, runLoad } from './gateway/load';
import { cpuBetween, formatCpuTable, sampleCpu } from './shared/cpu';

const PIX = MERCHANT_QRS.find((qr) => qr.country === 'BR' && qr.amount !== undefined)!;
async function main() {
  const dir = process.env.PROF;
  const opts = [dir ? `--cpu-prof --cpu-prof-dir=${path.resolve(dir)}` : '', process.env.EXTRA ?? '']
    .join(' ')
    .trim();
  const profile = opts ? { NODE_OPTIONS: opts } : {};
  const fx = process.env.FX === '1';
  const system = await startSystem({
    logLevel: 'warn',
    gatewayEnv: profile,
    serviceEnv: { decoder: profile, payout: profile, fx: profile },
    partnerSimEnv: profile,
  });
  try {
    const tenant = await system.createTenant(`adhoc-${Date.now()}`, 1_000_000);
    const load = {
      url: `${system.gatewayUrl}/v1/resolve`,
      method: 'POST' as const,
      body: JSON.stringify(
        fx ? { qr_string: PIX.qrString, wallet_currency: 'USD' } : { qr_string: PIX.qrString },
      ),
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
      connections: Number(process.env.C ?? 32),
    };
    await runLoad({ ...load, durationSeconds: 3 });
    const s = sampleCpu(system.processes);
    const r = await runLoad({ ...load, durationSeconds: Number(process.env.D ?? 10) });
    const rps = r.responses / r.durationSeconds;
    console.log(
      `req/s ${rps.toFixed(0)} p50 ${percentile(r.latenciesMs, 0.5).toFixed(2)} p99 ${percentile(r.latenciesMs, 0.99).toFixed(2)} non2xx ${r.non2xx} err ${r.errors}`,
    );
    console.log(
      formatCpuTable(
        cpuBetween(s, sampleCpu(system.processes)).filter((x) => x.cores > 0.005),
        rps,
        'request',
      ),
    );
  } finally {
    await system.stop();
  }
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
