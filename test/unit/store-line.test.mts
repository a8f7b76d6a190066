// The node's row in n8n's store (run/memory/store.ts): n8n reads a row and
// writes it back whole, with no lock, so two executions that write it at
// once lose one's keys. In one n8n process their calls on the row go one
// after another. ProcessedRows behaves as n8n's store does, with a database
// round trip between each read and its write. Calls of one kind that wait
// together go as one, each answered as in its own turn.
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
	expect(cleared).toEqual({ cleared: true });
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

test('records that wait together go as one call, each answered as it would have been in its own turn', async () => {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const executions = Array.from({ length: 5 }, () =>
		processedStoreOver(helpersOver(rows), 1000, NODE_ROW),
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

test('removals that wait together go as one call; a record between them keeps its place in line', async () => {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const [first, second, third] = Array.from({ length: 3 }, () =>
		processedStoreOver(helpersOver(rows), 1000, NODE_ROW),
	);
	await first?.checkAndRecord(['a', 'b', 'c']);
	rows.calls.length = 0;
	const [, , , seen] = await Promise.all([
		first?.checkAndRecord(['x']),
		second?.remove(['a']),
		third?.remove(['b']),
		first?.checkAndRecord(['a', 'b']),
		second?.remove(['c']),
	]);
	// The record after the two removals finds neither a nor b: it came after them.
	expect([...(seen ?? [])]).toEqual([]);
	expect(rows.calls.map((call) => call.call)).toEqual(['check', 'remove', 'check', 'remove']);
	const kept = await first?.checkAndRecord(['a', 'b', 'c', 'x']);
	expect([...(kept ?? [])].sort()).toEqual(['a', 'b', 'x']);
});
