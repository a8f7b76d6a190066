// n8n's store for processed items as a node sees it in unit tests: the
// node's own row of ProcessedRows (processed-store.mts, which behaves as
// n8n's does: md5 hashes, trimmed from the oldest past maxEntries, read and
// written back whole with no lock, removal by findIndex), reached through
// n8n's helpers, as the node reaches them.
import type { StoreHelpers } from '../../nodes/OutreachSequences/run/memory/store.ts';
import { ProcessedRows } from './processed-store.mts';

export const WORKFLOW = 'wf-1';
export const NODE = 'node-1';
/** The node's row, as ProcessedRows names it. */
export const NODE_ROW = `${WORKFLOW}|n:${NODE}`;

/** The helpers n8n hands a node, over `rows`, for workflow WORKFLOW and node NODE. */
export function helpersOver(rows: ProcessedRows): StoreHelpers {
	const data = { workflow: { id: WORKFLOW, active: false }, node: { id: NODE } as never };
	const helpers = {
		checkProcessedAndRecord: (items: string[], scope: 'node' | 'workflow', options: never) =>
			rows.checkProcessedAndRecord(items, scope, data, options),
		removeProcessed: (items: string[], scope: 'node' | 'workflow', _options: never) =>
			rows.removeProcessed(items, scope, data),
		getProcessedDataCount: (scope: 'node' | 'workflow') => rows.getProcessedDataCount(scope, data),
		clearAllProcessedItems: (scope: 'node' | 'workflow') =>
			rows.clearAllProcessedItems(scope, data),
	};
	return helpers as unknown as StoreHelpers;
}
