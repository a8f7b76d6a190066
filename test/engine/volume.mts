// Volume: 1,000 items in one run give exactly 1,000 outputs, in order, each
// linked to its input; with batching the service never sees more requests at
// once than the batch size, and without it the node stays within its own
// bound instead of opening a socket per item. Two test files call this
// (volume.test.mts, volume-batching.test.mts), so that jest runs the two
// halves side by side. 10,000 items, their time and memory: bench/run.mjs.
import type { INodeParameters } from 'n8n-workflow';

import { factsOf, runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const N = 1000;

// Mostly found, every 100th one not: successes and errors interleave.
const ids = Array.from({ length: N }, (_, index) =>
	index % 100 === 99 ? `zz-${index}` : index % 2 ? 'uc-2' : 'uc-1',
);
/** Held at the service until another request arrives: two are under way at once, however slow the machine. */
const HELD = ids[499];

/** One suite: 1,000 Get Use Case items with these request options, at most `limit` in flight. */
export function volumeSuite(name: string, requestOptions: INodeParameters, limit: number): void {
	const env = useEnvironment();
	describe(name, () => {
		test(`${N} items give ${N} outputs in order, and at most ${limit} requests in flight`, async () => {
			await env.sandbox.addFault({
				pathPrefix: `/v1/use_cases/${HELD}`,
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
			const items = run.outputs[0];
			expect(items).toHaveLength(N);
			let mismatches = 0;
			items.forEach((item, index) => {
				const paired = item.pairedItem as { item: number };
				const expected = ids[index];
				const ok = expected.startsWith('zz-')
					? factsOf(item)?.statusCode === 404
					: item.json.id === expected;
				if (paired.item !== index || !ok) mismatches++;
			});
			expect(mismatches).toBe(0);

			const requests = await env.sandbox.requests();
			const maxInFlight = await env.sandbox.maxInFlight();
			expect(requests).toHaveLength(N);
			expect(maxInFlight).toBeLessThanOrEqual(limit);
			expect(maxInFlight).toBeGreaterThan(1);
		});
	});
}
