/**
 * n8n's store for processed items, from the node's helpers, as the journal
 * and the done keys use it (outcome/processedStore.ts). It is in n8n's
 * database from n8n 1.65 on, and needs a saved workflow; undefined where
 * there is none.
 */
import type { DeduplicationScope, IExecuteFunctions } from 'n8n-workflow';

import type { ProcessedStore } from '../outcome/processedStore';

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
			// The first write of a row is an insert: when two executions make it at once, one fails; the row is there then.
			const { processed } = await check().catch(check);
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
	};
}
