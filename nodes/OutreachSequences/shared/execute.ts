import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, Field } from './names';
import type { Connection } from './transport';
import { sendRequest } from './transport';
import type { OperationDefinition } from './types';
import { normalizeBaseUrl } from './validation';

/**
 * Requests in flight at once when Batching is off. Without a bound, 10,000
 * items would open 10,000 sockets at the same moment.
 */
export const MAX_IN_FLIGHT = 32;
/** n8n's own limit for a request when the user sets no timeout. */
export const DEFAULT_TIMEOUT_MS = 300_000;

interface RequestOptionsValue {
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
	timeout?: number;
	allowUnauthorizedCerts?: boolean;
}

interface Pace {
	/** Requests started together; the next group waits for this one to finish. */
	groupSize: number;
	/** Pause between groups in ms (batching only). */
	pauseMs: number;
	batched: boolean;
}

function paceOf(options: RequestOptionsValue): Pace {
	const batch = options.batching?.batch;
	if (!batch) return { groupSize: MAX_IN_FLIGHT, pauseMs: 0, batched: false };
	const size = Number(batch.batchSize);
	const pause = Number(batch.batchInterval);
	return {
		groupSize: Number.isInteger(size) && size > 0 ? size : 1,
		pauseMs: Number.isFinite(pause) && pause > 0 ? pause : 0,
		batched: true,
	};
}

async function connect(context: IExecuteFunctions, options: RequestOptionsValue): Promise<Connection> {
	const node = context.getNode();
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!baseUrl.ok) throw new NodeOperationError(node, baseUrl.problem);
	const reference = node.credentials?.[CREDENTIAL_TYPE];
	const timeout = Number(options.timeout);
	return {
		baseUrl: baseUrl.value,
		credentials: { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data },
		credentialName: reference?.name ?? 'Outreach Sequences API',
		timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
		allowUnauthorizedCerts: options.allowUnauthorizedCerts === true,
	};
}

function asItemError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** The same setup failure (credential, Base URL) as a separate error for each item. */
function setupFailure(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeOperationError {
	const { message, description } = error as { message?: string; description?: string | null };
	return new NodeOperationError(context.getNode(), message ?? String(error), {
		itemIndex,
		description: description ?? undefined,
	});
}

/**
 * Run one operation over every input item: exactly one output item per input
 * item, in input order, each with its pairedItem. With On Error set to stop,
 * nothing new starts after a failure, and the failure of the lowest item is
 * thrown.
 */
export async function runOperation(
	context: IExecuteFunctions,
	definition: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const continueOnFail = context.continueOnFail();
	const options = context.getNodeParameter(Field.requestOptions, 0, {}) as RequestOptionsValue;
	const pace = paceOf(options);
	const output: INodeExecutionData[] = new Array(items.length);
	let stopError: { itemIndex: number; error: Error } | undefined;

	let connection: Connection | undefined;
	let setupError: unknown;
	try {
		connection = await connect(context, options);
	} catch (error) {
		setupError = error;
	}

	const runItem = async (itemIndex: number) => {
		try {
			if (!connection) throw setupFailure(context, setupError, itemIndex);
			const request = definition.buildRequest(context, itemIndex);
			const json: IDataObject = await sendRequest(context, connection, request, itemIndex);
			output[itemIndex] = { json, pairedItem: { item: itemIndex } };
		} catch (caught) {
			const error = asItemError(context, caught, itemIndex);
			if (!continueOnFail) {
				if (!stopError || itemIndex < stopError.itemIndex) stopError = { itemIndex, error };
				return;
			}
			// Only the message: an item that holds the error object breaks
			// $('Outreach Sequences').item for every node downstream.
			output[itemIndex] = { json: { error: error.message }, pairedItem: { item: itemIndex } };
		}
	};

	let next = 0;
	while (next < items.length && !stopError) {
		if (next > 0 && pace.pauseMs > 0) await sleep(pace.pauseMs);
		const end = pace.batched ? Math.min(next + pace.groupSize, items.length) : items.length;
		// A fixed number of workers share the group, so at most groupSize requests are in flight.
		const workers = Math.min(pace.groupSize, end - next);
		await Promise.all(
			Array.from({ length: workers }, async () => {
				while (next < end && !stopError) {
					const itemIndex = next++;
					await runItem(itemIndex);
				}
			}),
		);
	}

	if (stopError) throw stopError.error;
	return [output];
}
