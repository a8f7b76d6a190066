// The node's row in n8n's store (run/memory/store.ts): n8n reads a row and
// writes it back whole, with no lock, so two executions that write it at
// once lose one's keys. In one n8n process their calls on the row go one
// after another. ProcessedRows behaves as n8n's store does, with a database
// round trip between each read and its write. Records that wait together
// go as one, each answered as in its own turn.
import { processedStoreOver } from '../../nodes/OutreachSequences/run/memory/store.ts';
import { NODE_ROW, helpersOver } from '../harness/node-store.mts';
import { ProcessedRows } from '../harness/processed-store.mts';

/** `count` executions' stores over one row; `row` names it to the store, or not. */
function executions(count: number, row: string | undefined) {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const stores = Array.from({ length: count }, () => {
		const store = processedStoreOver(helpersOver(rows), row, 1000);
		if (!store) throw new Error('No store');
		return store;
	});
	return { rows, stores };
}

test.each([
	['named: neither loses its keys', NODE_ROW, 4],
	[
		"unnamed, as n8n's store alone: the second overwrites the first's (what the line prevents)",
		undefined,
		2,
	],
])("two executions' writes at the same moment, the row %s", async (_, row, kept) => {
	const { rows, stores } = executions(2, row);
	await Promise.all([stores[0].checkAndRecord(['a', 'b']), stores[1].checkAndRecord(['c', 'd'])]);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(kept);
});

test('a call that fails does not stop the line: the next one runs', async () => {
	const { rows, stores } = executions(2, NODE_ROW);
	rows.failNext = new Error('SQLITE_IOERR');
	const failing = stores[0].checkAndRecord(['a']).catch((error: unknown) => error);
	const after = stores[1].checkAndRecord(['c']);
	expect(await failing).toEqual(new Error('SQLITE_IOERR'));
	expect([...(await after)]).toEqual([]);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(1);
});

test('records that wait together go as one call, each answered as it would have been in its own turn', async () => {
	const { rows, stores } = executions(5, NODE_ROW);
	await stores[0].checkAndRecord(['old']);
	rows.calls.length = 0;
	// The first goes at once; the four behind it wait, and go together.
	const answers = await Promise.all(
		[['a'], ['b', 'old'], ['c', 'shared'], ['shared', 'd'], ['c']].map((keys, at) =>
			stores[at].checkAndRecord(keys),
		),
	);
	expect(answers.map((there) => [...there].sort())).toEqual([[], ['old'], [], ['shared'], ['c']]);
	expect(rows.calls.map((call) => call.call)).toEqual(['check', 'check']);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(6);
});
