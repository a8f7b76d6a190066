// Request Options › Skip Items Done Before at volume, in n8n's engine over real
// sockets: two executions of 10,000 creates keyed by name. The second sends
// nothing; the node's row of n8n's store holds 3 entries per key and its
// runs' tags, and nothing was taken out of it.
import { REFRESH_LEAD_MS } from '../../nodes/OutreachSequences/run/memory/doneKeys.ts';
import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture } from '../harness/workflows.mts';
import { sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const DAY = 24 * 60 * 60_000;
const N = Number(process.env.DONE_KEYS_N ?? 10_000);
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

test(`two executions of ${N} creates with a key: the second skips all ${N}, and the service saw each create once`, async () => {
	const rows = await processedRows();
	rows.rows.clear();
	rows.calls.length = 0;
	let started = Date.now();
	const first = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', keyed);
	const firstMs = Date.now() - started;
	expect(first.all.filter((item) => item.json.name !== undefined)).toHaveLength(N);
	started = Date.now();
	const second = await runFixture(env.engine, env.sandbox, 'sequence-create-fields', keyed);
	const secondMs = Date.now() - started;
	expect(second.all.filter((item) => item.json.skipped === true)).toHaveLength(N);
	const counts = await sentCounts(env.sandbox);
	expect(Object.keys(counts)).toHaveLength(N);
	expect(Object.values(counts).every((count) => count === 1)).toBe(true);
	// One row, the node's: D_{b-1}, C_b and D_b per key, and one tag per run.
	// Within REFRESH_LEAD_MS of midnight (UTC), the runs claim the next day too: 2 more per key.
	const nearMidnight =
		(Date.now() + REFRESH_LEAD_MS + firstMs + secondMs) % DAY < 3 * REFRESH_LEAD_MS;
	const lengths = [...rows.rows.values()].map((row) => row.length);
	if (nearMidnight) expect(lengths[0]).toBeLessThanOrEqual(5 * N + 2);
	else expect(lengths).toEqual([3 * N + 2]);
	expect(rows.calls.filter((call) => call.call === 'remove')).toEqual([]);
	console.log(`done keys at ${N}: first run ${firstMs} ms, second ${secondMs} ms`);
}, 900_000);
