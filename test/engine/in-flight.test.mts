// Fast at a distance, gentle at capacity (issue 44), in n8n's own engine over
// real sockets to the sandbox. A far service: every answer delayed; the run
// takes the same run's time at 0 ms (taken in this test, so that a loaded
// machine slows both) plus a few round trips, with more than the old 32 at
// once. A busy service: it works on C requests at a time and the others wait
// in line; a few times C go at once, not a line of every item, and the hint
// says why. How long a busy service's run takes against its own limit, and
// issue 44's ratios at 1,000 and 10,000 items, are the benchmark's
// (bench/latency.mjs), in real n8n: on a loaded 2-core machine this test's
// times vary too much to bound them here.
import type { NodeExecutionHint } from 'n8n-workflow';

import { runFixture, type FixtureRun } from '../harness/workflows.mts';
import { forgetLearnedPaces, useEnvironment } from '../harness/setup.mts';

const env = useEnvironment();

const archives = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ id: index % 2 ? 'c-42' : 'c-43' }));

const nodeOf = (run: FixtureRun) =>
	run.run.data.resultData.runData['Outreach Sequences'][0] as {
		executionTime: number;
		hints?: NodeExecutionHint[];
	};

/** Archives of `count` items against the sandbox as it is set now: the node's own time, the most at once, every item done. */
async function archive(count: number) {
	const run = await runFixture(env.engine, env.sandbox, 'contact-archive', {
		items: archives(count),
		onError: 'continueRegularOutput',
	});
	expect(run.all.map((item) => item.json.error)).toEqual(archives(count).map(() => undefined));
	const summary = await env.sandbox.summary();
	expect(summary.requests).toBe(count);
	return { ms: nodeOf(run).executionTime, summary, hints: nodeOf(run).hints ?? [] };
}

test('a far service: 600 archives 300 ms away take the time at 0 ms plus a few round trips, not 32 at a time', async () => {
	const near = await archive(600);
	// A service of its own: what the node learned next door is not carried over.
	await env.sandbox.reset();
	forgetLearnedPaces();
	await env.sandbox.addFault({ delayMs: 300 });
	const far = await archive(600);
	// One request, its answer, then the limit opens to what 300 ms needs: a few round trips of ramp.
	expect(far.ms).toBeLessThanOrEqual(1.3 * near.ms + 6 * 300);
	expect(far.summary.maxInFlight).toBeGreaterThan(32);
	expect(far.hints).toEqual([]);
}, 60_000);

test('a busy service: 8 at a time, 50 ms each: 400 archives with a few times 8 in flight, not a line of every item, and a hint that says why', async () => {
	forgetLearnedPaces();
	await env.sandbox.setCapacity({ concurrency: 8, serviceMs: 50 });
	const busy = await archive(400);
	expect(busy.summary.maxInFlight).toBeLessThanOrEqual(3 * 8);
	expect(busy.hints.map((hint) => hint.message)).toEqual([
		expect.stringMatching(
			/^The outreach service answered more slowly with more requests under way, so the node sent about \d+ requests at a time\.$/,
		),
	]);
}, 60_000);
