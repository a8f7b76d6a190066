// A Key that is one field of the item ({{ $json.k }}, or a path) is read by
// the node itself where the field is text, a number or true/false, without
// n8n's evaluation (run/memory/memoryParts.ts); for any other value n8n
// evaluates it. Either way the key is n8n's: a run keyed through n8n's
// evaluation ({{ ($json.k) }}, which the node leaves to n8n) and the next run
// keyed by the field itself meet the same keys, so the second sends nothing.
import type { IDataObject } from 'n8n-workflow';

import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import { runFixture, type RunOptions } from '../harness/workflows.mts';
import { names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const VALUES: Array<IDataObject[string]> = [
	'text',
	'  spaced  ',
	42,
	-7,
	3.5,
	1e21,
	true,
	false,
	{ a: [1, 'b'] },
];
const ITEMS = names(VALUES.length).map((item, index) => ({
	...item,
	k: VALUES[index],
	deep: { k: VALUES[index] },
}));
const keyedBy = (key: string): RunOptions => ({
	items: ITEMS,
	onError: 'continueRegularOutput',
	parameters: { requestOptions: { skipDoneBefore: { keySettings: { key } } } },
});

beforeEach(async () => {
	const rows = await processedRows();
	rows.rows.clear();
	rows.latencyMs = 0;
});

test("a field's key read by the node is the key n8n's evaluation gives: a run keyed either way skips what the other created", async () => {
	const evaluated = await runFixture(env.engine, env.sandbox, FIXTURE, keyedBy('={{ ($json.k) }}'));
	expect(evaluated.all.map((item) => item.json.skipped)).toEqual(VALUES.map(() => undefined));
	for (const key of ['={{ $json.k }}', '={{ $json.deep.k }}']) {
		const read = await runFixture(env.engine, env.sandbox, FIXTURE, keyedBy(key));
		expect(read.all.map((item) => item.json.key)).toEqual(
			VALUES.map((value) => (typeof value === 'object' ? JSON.stringify(value) : String(value))),
		);
		expect(read.all.every((item) => item.json.skipped === true)).toBe(true);
	}
	expect(Object.values(await sentCounts(env.sandbox))).toEqual(VALUES.map(() => 1));
});
