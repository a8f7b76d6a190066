// Opening the done keys of a run from n8n (run/n8n/memoryKeys.ts) and n8n's
// store for them (run/n8n/store.ts): a run with too many keys, or whose store
// fails, sends nothing and says why; a run that pushes earlier runs' entries
// out of the row says so; the store is called again only when its first call
// certainly wrote nothing.
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { openKeys } from '../../nodes/OutreachSequences/run/n8n/memoryKeys.ts';
import { processedStoreOver } from '../../nodes/OutreachSequences/run/n8n/store.ts';
import {
	DONE_KEYS_MAX_ENTRIES,
	MAX_RUN_KEYS,
} from '../../nodes/OutreachSequences/run/outcome/doneKeys.ts';
import { helpersOver, NODE_ROW, WORKFLOW } from '../harness/node-store.mts';
import { ProcessedRows } from '../harness/processed-store.mts';

/** A node's context for `keys` (one item each), over `rows`, collecting its hints. */
function contextFor(keys: string[], rows: ProcessedRows) {
	const hints: NodeExecutionHint[] = [];
	const parameters = {
		requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.k }}' } } },
	};
	const context = {
		getNode: () => ({ id: 'node-1', parameters }),
		getInputData: () => keys.map((k) => ({ json: { k } })),
		getNodeParameter: (path: string, index: number, fallback: unknown) =>
			path.endsWith('.key') ? keys[index] : fallback,
		getWorkflow: () => ({ id: WORKFLOW }),
		helpers: helpersOver(rows),
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
	};
	return { context: context as unknown as IExecuteFunctions, hints };
}

const warned: unknown[] = [];
const warn = () => (error: unknown) => warned.push(error);
const quick = (rows: ProcessedRows) => {
	rows.turns = false;
	return rows;
};

test(`a run with more than ${MAX_RUN_KEYS} distinct keys sends nothing, and says the limit and what to do; the store is not written`, async () => {
	const rows = quick(new ProcessedRows());
	const keys = Array.from({ length: MAX_RUN_KEYS + 1 }, (_, index) => `k${index}`);
	const { context } = contextFor(keys, rows);
	const opened = await openKeys(context, 'scope', 'tag', warn);
	expect(opened?.problem).toBe(
		'Request Options › Skip Items Done Before keeps at most 50,000 keys for one run, and this run has 50,001, so nothing was sent. Split the input into runs of at most 50,000 items, for example with Loop Over Items, or leave the Key empty.',
	);
	expect(rows.calls.filter((call) => call.call === 'check')).toEqual([]);
});

test('the store fails while the keys are claimed: every item is to fail unsent, with why and what to do', async () => {
	const rows = quick(new ProcessedRows());
	rows.failNext = new Error('SQLITE_BUSY: database is locked');
	const opened = await openKeys(contextFor(['a', 'b'], rows).context, 'scope', 'tag', warn);
	expect(opened?.problem).toBe(
		"n8n's store for processed items failed (SQLITE_BUSY: database is locked), so Request Options › Skip Items Done Before could not check this item's key, and nothing was sent. Run the workflow again; if the store fails again, n8n's log and database say why.",
	);
	expect(opened?.doneKeys).toBeUndefined();
});

test('a run whose entries push earlier ones out of the row says so in a hint; one that fits says nothing', async () => {
	const rows = quick(new ProcessedRows());
	const filler = Array.from({ length: DONE_KEYS_MAX_ENTRIES - 10 }, (_, index) => `old-${index}`);
	rows.rows.set(NODE_ROW, filler);
	const full = contextFor(['a', 'b', 'c', 'd'], rows);
	await openKeys(full.context, 'scope', 'tag', warn);
	// 4 keys: D_{b-1}, C_b and the tag now, D_b once confirmed: 13 entries into 10 free.
	expect(full.hints.map((hint) => hint.message)).toEqual([
		"n8n keeps at most 150,000 entries for this node's keys (Request Options › Skip Items Done Before); it held 149,990, and this run adds up to 13, so the oldest go first: keys done in earlier runs that this one did not meet may be forgotten before their Window ends, and sent again. A key costs up to 3 entries: runs of at most 50,000 keys fit on their own.",
	]);
	const roomy = contextFor(['a'], quick(new ProcessedRows()));
	await openKeys(roomy.context, 'scope', 'tag', warn);
	expect(roomy.hints).toEqual([]);
}, 30_000);

test('the store is called again only after the row’s first insert lost to another’s: any other failure may have written', async () => {
	const rows = quick(new ProcessedRows());
	const store = processedStoreOver(helpersOver(rows), 100);
	rows.failNext = new Error(
		'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId',
	);
	expect(await store?.checkAndRecord(['k'])).toEqual(new Set());
	expect(rows.calls.filter((call) => call.call === 'check')).toHaveLength(1);
	rows.failNext = new Error('Connection terminated unexpectedly');
	await expect(store?.checkAndRecord(['k'])).rejects.toThrow('Connection terminated');
	expect(rows.calls.filter((call) => call.call === 'check')).toHaveLength(1);
});
