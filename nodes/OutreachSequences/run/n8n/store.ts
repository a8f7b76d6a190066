/**
 * n8n's store for processed items, from the node's helpers, as the journal
 * and the done keys use it (outcome/processedStore.ts). It is in n8n's
 * database from n8n 1.65 on, and needs a saved workflow; undefined where
 * there is none.
 */
import type { DeduplicationScope, IExecuteFunctions } from 'n8n-workflow';

import type { ProcessedStore } from '../outcome/processedStore';

/** A database's answer to an insert of a row that another insert made first: nothing of that call was written. */
const ROW_MADE_FIRST =
	/unique constraint|duplicate key|duplicate entry|ER_DUP_ENTRY|SQLITE_CONSTRAINT/i;

/** The store of this workflow (`workflow`) or this node (`node`), keeping at most `maxEntries` keys. */
export function processedStoreOf(
	context: IExecuteFunctions,
	scope: DeduplicationScope,
	maxEntries: number,
): ProcessedStore | undefined {
	const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
	const {
		checkProcessedAndRecord,
		removeProcessed,
		getProcessedDataCount,
		clearAllProcessedItems,
	} = helpers;
	if (typeof checkProcessedAndRecord !== 'function' || typeof removeProcessed !== 'function')
		return undefined;
	if (!context.getWorkflow().id) return undefined;
	const options = { mode: 'entries' as const, maxEntries };
	return {
		async checkAndRecord(keys) {
			const check = async () => await checkProcessedAndRecord.call(helpers, keys, scope, options);
			// The first write of a row is an insert: when two executions make it at once, one fails, having
			// written nothing, and the row is there then. Any other failure may have written: never call again.
			const { processed } = await check().catch(async (error: unknown) => {
				if (!ROW_MADE_FIRST.test((error as Error)?.message ?? '')) throw error;
				return await check();
			});
			return new Set(processed.map(String));
		},
		async remove(keys) {
			await removeProcessed.call(helpers, keys, scope, options);
		},
		async clearIfOnly(count) {
			if (
				typeof getProcessedDataCount !== 'function' ||
				typeof clearAllProcessedItems !== 'function'
			)
				return false;
			if ((await getProcessedDataCount.call(helpers, scope, options)) !== count) return false;
			await clearAllProcessedItems.call(helpers, scope, options);
			return true;
		},
		async count() {
			if (typeof getProcessedDataCount !== 'function') return undefined;
			return await getProcessedDataCount.call(helpers, scope, options);
		},
	};
}
