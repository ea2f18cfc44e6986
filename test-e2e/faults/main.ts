// `npm run fault-campaign`: the full fault campaign (docs/testing.md "Fault campaign"): every fault,
// the longer load, then the figures table; exit 1 when anything it checks was violated.
//   npm run fault-campaign                    FULL: one process per component, one Kafka node
//   npm run fault-campaign -- --replicated    FULL_REPLICATED: 2 of each, 3 Kafka nodes, link faults
//   npm run fault-campaign -- --ci [--replicated]   the CI forms, without jest
// FAULT_CAMPAIGN_REPLICATED=1 does what --replicated does.
import { CI, CI_REPLICATED, FULL, FULL_REPLICATED, runCampaign } from './campaign';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--replicated' && a !== '--ci');
  if (unknown.length > 0) throw new Error(`unknown argument(s): ${unknown.join(' ')} (--replicated, --ci)`);
  const replicated = args.includes('--replicated') || process.env.FAULT_CAMPAIGN_REPLICATED === '1';
  const ci = args.includes('--ci');
  const settings = ci ? (replicated ? CI_REPLICATED : CI) : replicated ? FULL_REPLICATED : FULL;
  const result = await runCampaign(settings);
  console.log(result.report);
  process.exitCode = result.violations.length === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
