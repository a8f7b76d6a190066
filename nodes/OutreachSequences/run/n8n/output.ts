/**
 * What a run gives back to n8n: one output item per input item, each with
 * its pairedItem (the service's answer, or the failure's text and facts),
 * and the execution hints in the output pane; and each failed item's words,
 * as the record keeps them.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';

import type { FailedItemShape, FailureFacts, FailureGroup } from '../outcome/failedItem';
import { failedItemJson, failureFacts, failureGroup } from '../outcome/failedItem';
import type { ItemState, RunLoop } from '../loop/loop';
import type { RetryPolicy } from '../loop/retry';
import type { EarlierFailure } from '../memory/record';
import type { Connection } from '../../transport/index';
import { itemError } from './itemError';

/** A failed item: its error, and the facts a workflow can branch on. */
export class Failed {
	constructor(
		readonly error: Error & { description?: string | null },
		readonly facts: FailureFacts,
	) {}
}

/** One output item per input item, each with its pairedItem: the service's answer, or the failure's text and facts. */
export function outputOf(
	results: Array<IDataObject | Failed>,
	shape: FailedItemShape,
): INodeExecutionData[][] {
	// Only the message: an item that holds the error object breaks
	// $('Outreach Sequences').item for every node downstream.
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

/** How each item ended, for the hints: its failure group, or undefined when it succeeded. */
export function groupOf(item: ItemState): FailureGroup | undefined {
	return item.state === 'failed' ? failureGroup(item.failure) : undefined;
}

/** What the hints name an item by beside its number: the name it creates, or its identifier. */
export function labelOf(item: ItemState): string | undefined {
	const request =
		item.state === 'failed'
			? 'request' in item.failure
				? item.failure.request
				: undefined
			: 'request' in item
				? item.request
				: undefined;
	return request?.subject.name ?? request?.subject.id;
}

/** Hints go to the output pane where n8n has them (guarded: older n8n and other callers may not). */
export function addHints(context: IExecuteFunctions, hints: NodeExecutionHint[]): void {
	if (hints.length > 0 && typeof context.addExecutionHints === 'function')
		context.addExecutionHints(...hints);
}

/** Each item's end: the service's answer, a failure, or undefined when it was never reached. */
export function resultsOf(node: INode, loop: RunLoop, connection: Connection, policy: RetryPolicy) {
	return loop.items.map((item, index): IDataObject | Failed | undefined => {
		if (item.state === 'done') return item.json;
		if (item.state !== 'failed') return undefined;
		const error = itemError(node, index, item.failure, connection, policy);
		return new Failed(error, failureFacts(item.failure));
	});
}

/** A failed item's words and facts, as the record keeps them for a re-run. */
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
