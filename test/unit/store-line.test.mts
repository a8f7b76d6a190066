// The node's row in n8n's store (run/memory/store.ts): n8n reads a row and
// writes it back whole, with no lock, so two executions that write it at
// once lose one's keys. In one n8n process their calls on the row go one
// after another. ProcessedRows behaves as n8n's store does, with a database
// round trip between each read and its write. Records that wait together
// go as one, each answered as in its own turn.
import { processedStoreOver } from '../../nodes/OutreachSequences/run/memory/store.ts';
import { NODE_ROW, helpersOver } from '../harness/node-store.mts';
import { ProcessedRows } from '../harness/processed-store.mts';

/** Two executions' stores over one row; `row` names it to the store, or not. */
function twoExecutions(row: string | undefined) {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const open = () => {
		const store = processedStoreOver(helpersOver(rows), row, 1000);
		if (!store) throw new Error('No store');
		return store;
	};
	return { rows, first: open(), second: open() };
}

test("two executions' writes at the same moment both land when the row is named: neither loses its keys", async () => {
	const { rows, first, second } = twoExecutions(NODE_ROW);
	await Promise.all([first.checkAndRecord(['a', 'b']), second.checkAndRecord(['c', 'd'])]);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(4);
	// Each sees what the other wrote.
	expect([...(await first.checkAndRecord(['c', 'd']))].sort()).toEqual(['c', 'd']);
});

test("unnamed, as n8n's store alone: the second write overwrites the first's keys (what the line prevents)", async () => {
	const { rows, first, second } = twoExecutions(undefined);
	await Promise.all([first.checkAndRecord(['a', 'b']), second.checkAndRecord(['c', 'd'])]);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(2);
});

test('a call that fails does not stop the line: the next one runs', async () => {
	const { rows, first, second } = twoExecutions(NODE_ROW);
	rows.failNext = new Error('SQLITE_IOERR');
	const failing = first.checkAndRecord(['a']).catch((error: unknown) => error);
	const after = second.checkAndRecord(['c']);
	expect(await failing).toEqual(new Error('SQLITE_IOERR'));
	expect([...(await after)]).toEqual([]);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(1);
});

test('records that wait together go as one call, each answered as it would have been in its own turn', async () => {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const executions = Array.from({ length: 5 }, () =>
		processedStoreOver(helpersOver(rows), NODE_ROW, 1000),
	);
	await executions[0]?.checkAndRecord(['old']);
	rows.calls.length = 0;
	// The first goes at once; the four behind it wait, and go together.
	const answers = await Promise.all([
		executions[0]?.checkAndRecord(['a']),
		executions[1]?.checkAndRecord(['b', 'old']),
		executions[2]?.checkAndRecord(['c', 'shared']),
		executions[3]?.checkAndRecord(['shared', 'd']),
		executions[4]?.checkAndRecord(['c']),
	]);
	expect(answers.map((there) => [...(there ?? [])].sort())).toEqual([
		[],
		['old'],
		[],
		['shared'],
		['c'],
	]);
	expect(rows.calls.map((call) => call.call)).toEqual(['check', 'check']);
	const kept = await executions[0]?.checkAndRecord(['a', 'b', 'c', 'd', 'old', 'shared']);
	expect(kept?.size).toBe(6);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(6);
});
