// Request Options › Skip Items Done Before at volume, in n8n's engine over real
// sockets: two executions of 1,000 creates keyed by name. The second sends
// nothing; the node's row of n8n's store holds 3 entries per key and its
// runs' claim tags, and nothing was taken out of it. The runs' clock starts at noon
// (UTC), far from the end of the day's bucket. 10,000 and 50,000 keys, and what they cost: bench/store-cost.mjs, and
// test/e2e/skip-done-before.e2e.mts for the key limit.
import { jest } from '@jest/globals';

import { processedRows } from '../harness/processed-store.mts';
import { fakeDateOnly, useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';
import { sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const N = Number(process.env.DONE_KEYS_N ?? 1000);
const names = Array.from({ length: N }, (_, index) => ({ name: `V${index + 1}` }));
const keyed = {
	items: names,
	onError: 'continueRegularOutput' as const,
	withoutReaders: true as const,
	parameters: {
		requestOptions: {
			skipDoneBefore: { keySettings: { key: '={{ $json.name }}', windowMinutes: 1440 } },
		},
	},
};

/** Only Date is n8n's and the node's to read at noon; it goes on from there as time passes. */
function fromNoon(): void {
	const noon = new Date();
	noon.setUTCHours(12, 0, 0, 0);
	fakeDateOnly(noon, true);
}

test(`two executions of ${N} creates with a key: the second skips all ${N}, and the service saw each create once`, async () => {
	const rows = await processedRows();
	rows.rows.clear();
	rows.calls.length = 0;
	fromNoon();
	try {
		const first = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', keyed);
		expect(first.all.filter((item) => item.json.name !== undefined)).toHaveLength(N);
		const second = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', keyed);
		expect(second.all.filter((item) => item.json.skipped === true)).toHaveLength(N);
	} finally {
		jest.useRealTimers();
	}
	const counts = await sentCounts(env.sandbox);
	expect(Object.keys(counts)).toHaveLength(N);
	expect(Object.values(counts).every((count) => count === 1)).toBe(true);
	// One row, the node's: C_b, C_b+1 and D_b per key, and per run its claim's tag.
	expect([...rows.rows.values()].map((row) => row.length)).toEqual([3 * N + 2]);
	expect(rows.calls.filter((call) => call.call === 'remove')).toEqual([]);
});
