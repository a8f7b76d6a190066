/** What a run gives back to n8n: one paired output item per input item, hints, and failures' words. */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';

import type { FailedItemShape, FailureFacts } from '../outcome/failedItem';
import { failedItemJson, failureFacts } from '../outcome/failedItem';
import type { ItemState, RunLoop } from '../loop/loop';
import type { RetryPolicy } from '../loop/retry';
import type { EarlierFailure } from '../memory/record';
import type { Connection } from '../../transport/index';
import { itemError } from './itemError';

export class Failed {
	constructor(
		readonly error: Error & { description?: string | null },
		readonly facts: FailureFacts,
	) {}
}

export function outputOf(
	results: Array<IDataObject | Failed>,
	shape: FailedItemShape,
): INodeExecutionData[][] {
	// Only the message: an item holding the error object breaks $('Outreach Sequences').item downstream.
	return [
		results.map((result, index) => ({
			json:
				result instanceof Failed
					? failedItemJson(result.error.message, result.facts, shape)
					: result,
			pairedItem: { item: index },
		})),
	];
}

export function labelOf(item: ItemState): string | undefined {
	const holder = item.state === 'failed' ? item.failure : item;
	const request = 'request' in holder ? holder.request : undefined;
	return request?.subject.name ?? request?.subject.id;
}

/** Guarded: older n8n and some callers have no addExecutionHints. */
export function addHints(context: IExecuteFunctions, hints: NodeExecutionHint[]): void {
	if (hints.length > 0 && typeof context.addExecutionHints === 'function')
		context.addExecutionHints(...hints);
}

export function resultsOf(node: INode, loop: RunLoop, connection: Connection, policy: RetryPolicy) {
	return loop.items.map((item, index): IDataObject | Failed | undefined => {
		if (item.state === 'done') return item.json;
		if (item.state !== 'failed') return undefined;
		const error = itemError(node, index, item.failure, connection, policy);
		return new Failed(error, failureFacts(item.failure));
	});
}

export function wordsOf(result: IDataObject | Failed | undefined): EarlierFailure | undefined {
	if (!(result instanceof Failed)) return undefined;
	const { statusCode, networkError } = result.facts;
	return {
		message: result.error.message,
		description: result.error.description ?? '',
		statusCode,
		networkError,
	};
}
