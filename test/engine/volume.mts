// Volume: 10,000 items in one run give exactly 10,000 outputs, in order, each
// linked to its input; with batching the service never sees more requests at
// once than the batch size, and without it the node stays within its own bound
// instead of opening a socket per item. Peaks are written to artifacts/volume.
// Two test files call this (volume.test.mts, volume-batching.test.mts), so that
// jest runs the two halves side by side.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { INodeParameters } from 'n8n-workflow';

import { runFixture } from '../harness/workflows.mts';
import { useEnvironment } from '../harness/setup.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

const N = 10_000;
const REPORT = path.resolve(here, '..', '..', 'artifacts', 'volume');

// Mostly found, every 500th one not: successes and errors interleave.
const ids = Array.from({ length: N }, (_, index) =>
	index % 500 === 499 ? `zz-${index}` : index % 2 ? 'uc-2' : 'uc-1',
);

/** Samples the test process's RSS (engine and node) while `work` runs. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
	let peak = process.memoryUsage().rss;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
	try {
		const result = await work();
		return { result, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20) };
	} finally {
		clearInterval(timer);
	}
}

function report(name: string, data: Record<string, unknown>): void {
	mkdirSync(REPORT, { recursive: true });
	writeFileSync(path.join(REPORT, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
}

/** One suite: 10,000 Get Use Case items with these request options, at most `limit` in flight. */
export function volumeSuite(name: string, requestOptions: INodeParameters, limit: number): void {
	const env = useEnvironment();
	describe(name, () => {
		test(`${N} items give ${N} outputs in order, and at most ${limit} requests in flight`, async () => {
			// A few milliseconds per answer, as a real service takes, so that requests overlap.
			await env.sandbox.addFault({ pathPrefix: '/v1/use_cases/', delayMs: 5 });
			const started = Date.now();
			const { result: run, peakRssMb } = await withPeakRss(() =>
				runFixture(env.engine, env.sandbox, 'use-case-get', {
					items: ids.map((id) => ({ id })),
					parameters: { requestOptions },
					onError: 'continueRegularOutput',
					withoutReaders: true,
				}),
			);
			const seconds = (Date.now() - started) / 1000;

			expect(run.outputs).toHaveLength(1);
			const items = run.outputs[0];
			expect(items).toHaveLength(N);
			let mismatches = 0;
			items.forEach((item, index) => {
				const paired = item.pairedItem as { item: number };
				const expected = ids[index];
				const ok = expected.startsWith('zz-')
					? item.json.error ===
						`Use case "${expected}" was not found (HTTP 404): Resource not found`
					: item.json.id === expected;
				if (paired.item !== index || !ok) mismatches++;
			});
			expect(mismatches).toBe(0);

			const requests = await env.sandbox.requests();
			const maxInFlight = await env.sandbox.maxInFlight();
			expect(requests).toHaveLength(N);
			expect(maxInFlight).toBeLessThanOrEqual(limit);
			expect(maxInFlight).toBeGreaterThan(1);
			report(name.replace(/\W+/g, '-'), {
				items: N,
				seconds,
				maxInFlight,
				peakRssMb,
				node: process.version,
			});
		}, 180_000);
	});
}
