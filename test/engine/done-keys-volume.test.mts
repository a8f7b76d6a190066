// Skip Items Done Before at volume, over real sockets: two executions of 1,000
// creates keyed by name. The second sends nothing, and the node's row holds
// 3 entries per key and one claim tag per run, with nothing taken out. The
// clock starts at noon (UTC), far from a bucket's end. 50,000 keys and their
// cost: bench/store-cost.mjs, test/e2e/skip-done-before.e2e.mts.
import { jest } from '@jest/globals';

import { processedRows } from '../harness/processed-store.mts';
import { fakeDateOnly, useEnvironment } from '../harness/setup.mts';
import { runner, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const N = 1000;
const keyed = {
	items: Array.from({ length: N }, (_, index) => ({ name: `V${index + 1}` })),
	onError: 'continueRegularOutput' as const,
	withoutReaders: true as const,
	parameters: {
		requestOptions: {
			skipDoneBefore: { keySettings: { key: '={{ $json.name }}', windowMinutes: 1440 } },
		},
	},
};

test(`two executions of ${N} keyed creates: the second skips all, and the row holds 3 entries a key`, async () => {
	const rows = await processedRows();
	rows.calls.length = 0;
	const noon = new Date();
	noon.setUTCHours(12, 0, 0, 0);
	fakeDateOnly(noon, true);
	try {
		await runner(env).run(keyed);
		const second = await runner(env).run(keyed);
		expect(second.all.filter((item) => item.json.skipped === true)).toHaveLength(N);
	} finally {
		jest.useRealTimers();
	}
	const counts = Object.values(await sentCounts(env.sandbox));
	expect(counts).toEqual(Array.from({ length: N }, () => 1));
	expect([...rows.rows.values()].map((row) => row.length)).toEqual([3 * N + 2]);
	expect(rows.calls.filter((call) => call.call === 'remove')).toEqual([]);
});
