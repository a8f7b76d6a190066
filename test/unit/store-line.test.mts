// The node's row in n8n's store (run/memory/store.ts): n8n reads a row and
// writes it back whole, with no lock (ProcessedRows does too, a database round
// trip between the read and the write). In one n8n process the node's calls on
// the row go one after another, and records that wait together go as one.
import { processedStoreOver } from '../../nodes/OutreachSequences/run/memory/store.ts';
import { NODE_ROW, helpersOver } from '../harness/node-store.mts';
import { ProcessedRows } from '../harness/processed-store.mts';

function executions(count: number) {
	const rows = new ProcessedRows();
	rows.latencyMs = 5;
	const stores = Array.from({ length: count }, () => {
		const store = processedStoreOver(helpersOver(rows), NODE_ROW, 1000);
		if (!store) throw new Error('No store');
		return store;
	});
	return { rows, stores };
}

test('records at the same moment go as one call, each answered as in its own turn, and none loses its keys', async () => {
	const { rows, stores } = executions(5);
	await stores[0].checkAndRecord(['old']);
	const answers = await Promise.all(
		[['a'], ['b', 'old'], ['c', 'shared'], ['shared', 'd'], ['c']].map((keys, at) =>
			stores[at].checkAndRecord(keys),
		),
	);
	expect(answers.map((there) => [...there].sort())).toEqual([[], ['old'], [], ['shared'], ['c']]);
	expect(rows.calls.map((call) => call.call)).toEqual(['check', 'check']);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(6);
});

test('a call that fails does not stop the line: the remove behind it runs, and so do later records', async () => {
	const { rows, stores } = executions(2);
	rows.failNext = new Error('SQLITE_IOERR');
	const failing = stores[0].checkAndRecord(['a']).catch((error: unknown) => error);
	const removed = stores[1].remove(['a']);
	expect(await failing).toEqual(new Error('SQLITE_IOERR'));
	await removed;
	expect([...(await stores[1].checkAndRecord(['c']))]).toEqual([]);
	expect(rows.calls.map((call) => call.call)).toEqual(['remove', 'check']);
	expect(rows.rows.get(NODE_ROW)).toHaveLength(1);
});
