/**
 * n8n's store for processed items, from the node's helpers, as the journal
 * and the done keys use it (memory/processedStore.ts): the node's own row
 * (scope `node`), which no other node reads, trims or clears; n8n's
 * workflow-scope row is Remove Duplicates' too. It is in n8n's database from
 * n8n 1.65 on, and needs a saved workflow; undefined where there is none.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { Clearing, ProcessedStore } from './processedStore';
import { REMOVE_COMPARISONS, ROW_MAX_ENTRIES } from './processedStore';
import { aloneInLine, recordInLine, removeInLine } from './storeLine';

/**
 * The first write of a row is an insert: when two executions make it at
 * once, one fails on the row's unique key, having written nothing, and the
 * row is there then. Only that failure is safe to repeat: any other may have
 * been written, and a second check would read its own marks as done.
 */
export function isFirstInsertRace(error: unknown): boolean {
	const { code, message, driverError } = (error ?? {}) as {
		code?: unknown;
		message?: unknown;
		driverError?: { code?: unknown };
	};
	const codes = [code, driverError?.code].map(String);
	if (codes.some((value) => ['23505', 'ER_DUP_ENTRY', 'SQLITE_CONSTRAINT'].includes(value)))
		return true;
	return /UNIQUE constraint failed|duplicate key value violates unique constraint/i.test(
		String(message ?? ''),
	);
}

/** n8n's helpers for its store for processed items, as a node's context hands them over. */
export type StoreHelpers = Partial<
	Pick<
		IExecuteFunctions['helpers'],
		| 'checkProcessedAndRecord'
		| 'removeProcessed'
		| 'getProcessedDataCount'
		| 'clearAllProcessedItems'
	>
>;

/** The node's row in n8n's store for processed items, keeping at most ROW_MAX_ENTRIES keys. */
export function processedStoreOf(context: IExecuteFunctions): ProcessedStore | undefined {
	const workflowId = context.getWorkflow().id;
	if (!workflowId) return undefined;
	const row = `${workflowId}|n:${context.getNode().id}`;
	return processedStoreOver(context.helpers as StoreHelpers, ROW_MAX_ENTRIES, row);
}

/**
 * The node's row over n8n's `helpers`, keeping at most `maxEntries` keys;
 * undefined where n8n has no such store. With `row` (workflow and node), the
 * calls on it in this process go in its line (storeLine.ts).
 */
export function processedStoreOver(
	helpers: StoreHelpers,
	maxEntries: number,
	row?: string,
): ProcessedStore | undefined {
	const {
		checkProcessedAndRecord,
		removeProcessed,
		getProcessedDataCount,
		clearAllProcessedItems,
	} = helpers;
	if (typeof checkProcessedAndRecord !== 'function' || typeof removeProcessed !== 'function')
		return undefined;
	const scope = 'node' as const;
	const options = { mode: 'entries' as const, maxEntries };
	return {
		checkAndRecord: (keys) =>
			recordInLine(row, keys, async (all) => {
				const check = async () => await checkProcessedAndRecord.call(helpers, all, scope, options);
				const { processed } = await check().catch(async (error: unknown) => {
					if (isFirstInsertRace(error)) return await check();
					throw error;
				});
				return new Set(processed.map(String));
			}),
		async remove(keys, rowLength = maxEntries) {
			const chunk = Math.max(1, Math.floor(REMOVE_COMPARISONS / Math.max(1, rowLength)));
			const call = async (all: string[]) => {
				await removeProcessed.call(helpers, all, scope, options);
			};
			for (let from = 0; from < keys.length; from += chunk)
				await removeInLine(row, keys.slice(from, from + chunk), call, chunk);
		},
		count: () =>
			aloneInLine(row, async () => {
				if (typeof getProcessedDataCount !== 'function') return undefined;
				return await getProcessedDataCount.call(helpers, scope, options);
			}),
		// The count and the clear in one turn: no other execution's write comes between them.
		clearIfOnly: (count) =>
			aloneInLine(row, async (): Promise<Clearing> => {
				if (
					typeof getProcessedDataCount !== 'function' ||
					typeof clearAllProcessedItems !== 'function'
				)
					return { cleared: false };
				const length = await getProcessedDataCount.call(helpers, scope, options);
				if (length !== count) return { cleared: false, length };
				await clearAllProcessedItems.call(helpers, scope, options);
				return { cleared: true };
			}),
	};
}
