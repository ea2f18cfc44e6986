// `npm run fault-campaign`: the full fault campaign (docs/testing.md "Fault campaign"): every fault,
// the longer load, then the figures table; exit 1 when anything it checks was violated.
import { FULL, runCampaign } from './campaign';

async function main(): Promise<void> {
  const result = await runCampaign(FULL);
  console.log(result.report);
  process.exitCode = result.violations.length === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
