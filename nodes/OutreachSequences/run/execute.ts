/**
 * Where n8n hands the node its items: reads the settings, connects once,
 * runs the loop (loop.ts), and gives n8n exactly one output item per input
 * item, in input order, each with its pairedItem. With On Error = Stop the
 * failure of the lowest failed item is thrown instead.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, MAX_IN_FLIGHT } from '../describe/defaults';
import type { RequestOptionsValue } from '../describe/names';
import { CREDENTIAL_TYPE, Field } from '../describe/names';
import type { OperationDefinition } from '../describe/types';
import { normalizeBaseUrl } from '../describe/validation';
import { itemError } from './itemError';
import type { Pace } from './loop';
import { RunLoop } from './loop';
import { retryPolicyOf } from './retry';
import { servicePace } from './servicePace';
import { sharedPaceLogLine } from './texts';
import { failuresAsItems, toolCallerType } from './tool';
import type { Connection } from './transport';
import { send } from './transport';

function paceOf(options: RequestOptionsValue): Pace {
	const batch = options[Field.batching]?.[Field.batch];
	if (!batch) return { groupSize: MAX_IN_FLIGHT, pauseMs: 0, batched: false };
	const size = Number(batch[Field.batchSize]);
	const pause = Number(batch[Field.batchInterval]);
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
	const timeout = Number(options[Field.timeout]);
	return {
		baseUrl: baseUrl.value,
		credentials: { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data },
		credentialName: reference?.name ?? 'Outreach Sequences API',
		timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
		allowUnauthorizedCerts: options[Field.allowUnauthorizedCerts] === true,
	};
}

/** The same setup failure (credential, Base URL) as an error of its own for each item. */
function setupFailure(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeOperationError {
	const { message, description } = error as { message?: string; description?: string | null };
	return new NodeOperationError(context.getNode(), message ?? String(error), { itemIndex, description: description ?? undefined });
}

/** How n8n runs this node, for toolCallerType (tool.ts). */
function callerTypeOf(context: IExecuteFunctions): string | undefined {
	const caller = context.getExecuteData().node;
	return toolCallerType({
		executeDataNodeType: caller.type,
		ownExecuteData: caller.name === context.getNode().name,
		// Not in n8n 1.x.
		toolExecution: typeof context.isToolExecution === 'function' && context.isToolExecution(),
	});
}

/** One output item per input item, each with its pairedItem: the service's answer, or the failure's message. */
function outputOf(results: Array<IDataObject | Error>): INodeExecutionData[][] {
	// Only the message: an item that holds the error object breaks
	// $('Outreach Sequences').item for every node downstream.
	return [results.map((result, index) => ({ json: result instanceof Error ? { error: result.message } : result, pairedItem: { item: index } }))];
}

export async function runOperation(context: IExecuteFunctions, definition: OperationDefinition): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const items = context.getInputData();
	// As a tool, the caller decides whether a failure is an item or thrown (tool.ts); otherwise On Error does.
	const failuresBecomeItems = failuresAsItems(context.continueOnFail(), node.type, callerTypeOf(context));
	const options = context.getNodeParameter(Field.requestOptions, 0, {}) as RequestOptionsValue;
	const policy = retryPolicyOf(options);
	const cancelSignal = context.getExecutionCancelSignal?.();

	let connection: Connection;
	try {
		connection = await connect(context, options);
	} catch (error) {
		// A bad credential or Base URL: every item fails the same way, and nothing is sent.
		if (!failuresBecomeItems && items.length > 0) throw setupFailure(context, error, 0);
		return outputOf(items.map((_, index) => setupFailure(context, error, index)));
	}

	const pace = paceOf(options);
	const shared = servicePace(connection.baseUrl, connection.credentials.data?.apiKey, pace.groupSize);
	if (shared.learned) {
		context.logger.info(sharedPaceLogLine(connection.baseUrl, shared.pacer.pausedFor(), shared.pacer.sendRate, shared.pacer.inFlightLimit));
	}
	const loop = new RunLoop(
		items.length,
		{ pace, policy, readOnly: definition.readOnly === true, stopAtFirstFailure: !failuresBecomeItems },
		{
			pace: shared,
			prepare: (index) => definition.buildRequest(context, index),
			send: async (request) => await send(context, connection, request),
			cancelled: () => cancelSignal?.aborted === true,
			log: (line) => context.logger.info(line),
			now: Date.now,
			sleep,
			random: Math.random,
		},
	);
	shared.join(pace.groupSize);
	try {
		await loop.run();
	} finally {
		shared.leave();
	}

	const results = loop.items.map((item, index) => {
		if (item.state === 'done') return item.json;
		if (item.state === 'failed') return itemError(node, index, item.failure, connection, policy);
		return undefined;
	});
	const stopAt = loop.firstFailure;
	const stopError = stopAt === undefined ? undefined : results[stopAt];
	if (stopError instanceof Error) throw stopError;
	const complete = results.filter((result) => result !== undefined);
	if (cancelSignal?.aborted || complete.length < results.length) {
		throw new NodeOperationError(node, 'The execution was stopped before every item was sent.');
	}
	return outputOf(complete);
}
