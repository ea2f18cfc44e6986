// The CI forms of the fault campaign (test-e2e/faults/campaign.ts; docs/testing.md "Fault
// campaign"): every fault kind once with short waits, under open-loop pay load, on a private
// PostgreSQL, Redis and Kafka. Each prints the figures table and fails on any violation: a
// transaction neither terminal nor reported stuck, a second partner submission, a terminal event
// missing at a subscribed target, an answer the fault's rules do not allow, a process that died on
// its own. The first runs one process per component; the second two of each on a three-node Kafka,
// with the link faults (docs/testing.md "The replicated campaign").
import { CI, CI_REPLICATED, runCampaign } from './faults/campaign';

// The campaign stops at the first fault it does not recover from; this only bounds a hang.
jest.setTimeout(600_000);

it('survives every fault kind under load and loses nothing (one process per component)', async () => {
  const result = await runCampaign(CI, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${result.report}\n`);
  expect(result.faults.map((f) => f.name)).toHaveLength(12);
  expect(result.faults.map((f) => f.name)).toEqual(result.planned);
  expect(result.figures['payments accepted (2xx)']).toBeGreaterThan(0);
  expect(result.violations).toEqual([]);
});

it('survives every fault kind, a Kafka broker and the controller lost and link faults with two replicas of each component', async () => {
  const result = await runCampaign(CI_REPLICATED, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${result.report}\n`);
  expect(result.faults.map((f) => f.name)).toEqual(result.planned);
  expect(result.faults.length).toBeGreaterThanOrEqual(22);
  expect(result.figures['payments accepted (2xx)']).toBeGreaterThan(0);
  expect(result.violations).toEqual([]);
});
