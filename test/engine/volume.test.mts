// Volume: 1,000 items in one run give 1,000 outputs in order, each linked to its input; without
// Batching the node stays within its bound of 32 in flight, with it within the batch size.
// 10,000 items, their time and memory: bench/run.mjs.
import { MAX_IN_FLIGHT } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { useEnvironment } from '../harness/setup.mts';
import { factsOf, runFixture } from '../harness/workflows.mts';

const env = useEnvironment();
// Mostly found, every 100th one not: successes and errors interleave.
const ids = Array.from({ length: 1000 }, (_, index) =>
	index % 100 === 99 ? `zz-${index}` : index % 2 ? 'uc-2' : 'uc-1',
);

test.each([
	['without Batching', {}, MAX_IN_FLIGHT],
	['with Batching of 10', { batching: { batch: { batchSize: 10, batchInterval: 0 } } }, 10],
])('%s: 1,000 outputs in order, within the bound', async (_, requestOptions, limit) => {
	// One is held until another arrives: two are under way at once, however slow the machine.
	await env.sandbox.addFault({
		pathPrefix: `/v1/use_cases/${ids[499]}`,
		holdUntil: '/v1/use_cases/',
	});
	// A few milliseconds per answer, as a real service takes, so that a node past its bound would show it.
	await env.sandbox.addFault({ pathPrefix: '/v1/use_cases/', delayMs: 5 });
	const run = await runFixture(env.engine, env.sandbox, 'use-case-get', {
		items: ids.map((id) => ({ id })),
		parameters: { requestOptions },
		onError: 'continueRegularOutput',
		withoutReaders: true,
	});
	expect(run.outputs).toHaveLength(1);
	const wrong = run.outputs[0].filter(
		(item, index) =>
			(item.pairedItem as { item: number }).item !== index ||
			(ids[index].startsWith('zz-')
				? factsOf(item)?.statusCode !== 404
				: item.json.id !== ids[index]),
	);
	expect([run.outputs[0].length, wrong.length]).toEqual([ids.length, 0]);
	expect(await env.sandbox.requests()).toHaveLength(ids.length);
	const maxInFlight = await env.sandbox.maxInFlight();
	expect(maxInFlight).toBeGreaterThan(1);
	expect(maxInFlight).toBeLessThanOrEqual(limit);
});
