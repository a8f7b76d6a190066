// Opening the done keys of a run from n8n (run/memory/memoryKeys.ts) and n8n's
// store for them (run/memory/store.ts): a run with too many keys, or whose store
// fails, sends nothing and says why (test/engine/done-keys-open.test.mts);
// the store is called again only when its first call certainly wrote nothing.
import { MAX_RUN_KEYS } from '../../nodes/OutreachSequences/run/memory/doneKeys.ts';
import { processedStoreOver } from '../../nodes/OutreachSequences/run/memory/store.ts';
import { tooManyKeysText } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import { helpersOver } from '../harness/node-store.mts';
import { ProcessedRows } from '../harness/processed-store.mts';

const quick = (rows: ProcessedRows) => {
	rows.turns = false;
	return rows;
};

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

test('a run with more than 50,000 distinct keys: the sentence says the limit and what to do', () => {
	expect(MAX_RUN_KEYS).toBe(50_000);
	expect(tooManyKeysText(50_001, MAX_RUN_KEYS)).toBe(
		'Request Options › Skip Items Done Before keeps at most 50,000 keys for one run, and this run has 50,001, so nothing was sent. Split the input into runs of at most 50,000 items, for example with Loop Over Items, or leave the Key empty.',
	);
});
