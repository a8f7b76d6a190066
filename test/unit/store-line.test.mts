// The node's row in n8n's store (run/memory/store.ts): n8n reads a row and
// writes it back whole, with no lock, so two executions that write it at
// once lose one's keys. In one n8n process their calls on the row go one
// after another. ProcessedRows behaves as n8n's store does, with a database
// round trip between each read and its write.
import { processedStoreOver } from '../../nodes/OutreachSequences/run/memory/store.ts';
import { NODE_ROW, helpersOver } from '../harness/node-store.mts';
import { ProcessedRows } from '../harness/processed-store.mts';

/** Two executions' stores over one row; `row` names it to the store, or not. */
function twoExecutions(row: string | undefined) {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const open = () => {
		const store = processedStoreOver(helpersOver(rows), 1000, row);
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

test('a one-step clear counts and clears in one turn: a write that comes meanwhile waits, and is kept', async () => {
	const { rows, first, second } = twoExecutions(NODE_ROW);
	await first.checkAndRecord(['a', 'b']);
	const [cleared] = await Promise.all([first.clearIfOnly?.(2), second.checkAndRecord(['c'])]);
	expect(cleared).toBe(true);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(1);
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
