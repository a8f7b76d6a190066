/**
 * Where n8n hands the node its items: reads the settings, connects once,
 * runs the loop (loop.ts), and gives n8n exactly one output item per input
 * item, in input order, each with its pairedItem; a failed item holds its
 * error and its facts (failedItem.ts). With On Error = Stop the failure of
 * the lowest failed item is thrown instead, saying what was done before it.
 * When n8n may run the node again, what the service confirmed is kept in the
 * record (record.ts). What the run has to say goes to the output pane as
 * execution hints (hints.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, MAX_IN_FLIGHT } from '../../describe/defaults';
import type { RequestOptionsValue } from '../../describe/names';
import { CREDENTIAL_TYPE, Field } from '../../describe/names';
import type { OperationDefinition } from '../../describe/types';
import { normalizeBaseUrl } from '../../describe/validation';
import type {
	FailedItemShape,
	FailureFacts,
	FailureGroup,
	ItemFailure,
} from '../outcome/failedItem';
import { failedItemJson, failedItemShape, failureFacts, failureGroup } from '../outcome/failedItem';
import type { HintSetting } from '../outcome/hints';
import { executionHints, RETRY_ON_FAIL_TEXT } from '../outcome/hints';
import { itemError } from './itemError';
import { itemReader } from './itemReader';
import type { Batching, ItemState } from '../loop/loop';
import { RunLoop } from '../loop/loop';
import type { ItemForRecord } from '../outcome/record';
import { ExecutionRecord } from '../outcome/record';
import { retryPolicyOf } from '../loop/retry';
import { servicePace } from '../pace/servicePace';
import { doneBeforeStopText, sharedPaceLogLine } from '../outcome/texts';
import { RunReport } from '../outcome/runReport';
import { failuresAsItems, isToolVariant, toolCallerType } from './tool';
import type { Connection } from '../http/transport';
import { send } from '../http/transport';

export function batchingOf(options: RequestOptionsValue): Batching {
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

async function connect(
	context: IExecuteFunctions,
	options: RequestOptionsValue,
): Promise<Connection> {
	const node = context.getNode();
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!baseUrl.ok) throw new NodeOperationError(node, baseUrl.problem);
	const reference = node.credentials?.[CREDENTIAL_TYPE];
	const timeout = Number(options[Field.timeout]);
	return {
		baseUrl: baseUrl.value,
		credentials: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
		credentialName: reference?.name ?? 'Outreach Sequences API',
		timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
		allowUnauthorizedCerts: options[Field.allowUnauthorizedCerts] === true,
	};
}

/** The same setup failure (credential, Base URL) as an error of its own for each item. */
function setupFailure(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeOperationError {
	const { message, description } = error as { message?: string; description?: string | null };
	return new NodeOperationError(context.getNode(), message ?? String(error), {
		itemIndex,
		description: description ?? undefined,
	});
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

/**
 * The record of this run (record.ts), for operations that change something,
 * run as a step of the workflow: a tool call is the caller's to repeat.
 * Undefined where n8n keeps no node context.
 */
function recordOf(
	context: IExecuteFunctions,
	definition: OperationDefinition,
	asTool: boolean,
	baseUrl: string,
): ExecutionRecord | undefined {
	if (definition.readOnly || asTool) return undefined;
	try {
		const runIndex = Number(context.getWorkflowDataProxy(0).$runIndex);
		return ExecutionRecord.open(
			context.getContext('node'),
			Number.isInteger(runIndex) ? runIndex : 0,
			baseUrl,
		);
	} catch {
		return undefined;
	}
}

/** What the record keeps of each item: its confirmed answer, or that it was sent and not confirmed. */
function forRecord(item: ItemState): ItemForRecord {
	if (item.state === 'done') return { request: item.request, confirmed: item.json };
	if (item.state !== 'failed') return undefined;
	const { failure } = item;
	if ((failure.kind === 'gaveUp' || failure.kind === 'broken') && failure.sends > 0)
		return { request: failure.request, sent: true };
	return undefined;
}

/** The stopping error also says what was done before it, and whether n8n will do it again. */
function withDoneBeforeStop<T extends Error>(
	error: T,
	items: ItemState[],
	stoppedAt: number,
	kept: boolean,
): T {
	const done = items.filter((item): item is ItemState & { state: 'done' } => item.state === 'done');
	if (done.length === 0) return error;
	const ids = done
		.map((item) => item.json.id)
		.filter((id) => typeof id === 'string' || typeof id === 'number')
		.map(String);
	const text = doneBeforeStopText(
		{ subject: done[0].request.subject, count: done.length, ids },
		items.length,
		stoppedAt,
		kept,
	);
	const withDescription = error as T & { description?: string | null };
	withDescription.description = withDescription.description
		? `${text}\n\n${withDescription.description}`
		: text;
	return error;
}

/** A failed item: its error, and the facts a workflow can branch on. */
class Failed {
	constructor(
		readonly error: Error,
		readonly facts: FailureFacts,
	) {}
}

/** One output item per input item, each with its pairedItem: the service's answer, or the failure's text and facts. */
function outputOf(
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
function groupOf(item: ItemState): FailureGroup | undefined {
	return item.state === 'failed' ? failureGroup(item.failure) : undefined;
}

/** Hints go to the output pane where n8n has them (guarded: older n8n and other callers may not). */
function addHints(context: IExecuteFunctions, hints: NodeExecutionHint[]): void {
	if (hints.length > 0 && typeof context.addExecutionHints === 'function')
		context.addExecutionHints(...hints);
}

/** An error that stops the node also says when Retry On Fail will send every item again. */
function withRetryOnFailWarning<T extends Error>(error: T, setting: HintSetting): T {
	if (!setting.retryOnFail || setting.readOnly) return error;
	const withDescription = error as T & { description?: string | null };
	withDescription.description = withDescription.description
		? `${withDescription.description}\n\n${RETRY_ON_FAIL_TEXT}`
		: RETRY_ON_FAIL_TEXT;
	return error;
}

export async function runOperation(
	context: IExecuteFunctions,
	definition: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const items = context.getInputData();
	// As a tool, the caller decides whether a failure is an item or thrown (tool.ts); otherwise On Error does.
	const failuresBecomeItems = failuresAsItems(
		context.continueOnFail(),
		node.type,
		callerTypeOf(context),
	);
	const asTool = isToolVariant(node.type);
	const shape = failedItemShape(node.onError, asTool);
	const setting: HintSetting = {
		retryOnFail: node.retryOnFail === true,
		readOnly: definition.readOnly === true,
	};
	const options = context.getNodeParameter(Field.requestOptions, 0, {}) as RequestOptionsValue;
	const policy = retryPolicyOf(options);
	const cancelSignal = context.getExecutionCancelSignal?.();

	let connection: Connection;
	try {
		connection = await connect(context, options);
	} catch (error) {
		// A bad credential or Base URL: every item fails the same way, and nothing is sent.
		if (!failuresBecomeItems && items.length > 0)
			throw withRetryOnFailWarning(setupFailure(context, error, 0), setting);
		const notSent: ItemFailure = { kind: 'notSent', error };
		addHints(
			context,
			executionHints(
				new RunReport().summarize(items.map(() => groupOf({ state: 'failed', failure: notSent }))),
				setting,
			),
		);
		return outputOf(
			items.map(
				(_, index) => new Failed(setupFailure(context, error, index), failureFacts(notSent)),
			),
			shape,
		);
	}

	const record = recordOf(context, definition, asTool, connection.baseUrl);
	const earlierTry = record !== undefined && !record.isEmpty;
	const batching = batchingOf(options);
	const pace = servicePace(
		connection.baseUrl,
		connection.credentials.data?.apiKey,
		batching.groupSize,
	);
	if (pace.learned) {
		context.logger.info(
			sharedPaceLogLine(
				connection.baseUrl,
				pace.pacer.pausedFor(),
				pace.pacer.sendRate,
				pace.pacer.inFlightLimit,
			),
		);
	}
	const loop = new RunLoop(
		items.length,
		{
			batching,
			policy,
			readOnly: definition.readOnly === true,
			stopAtFirstFailure: !failuresBecomeItems,
		},
		{
			pace,
			prepare: definition.buildRequest.bind(definition, itemReader(context)),
			earlierTry: earlierTry ? (index, request) => record?.earlierTry(index, request) : undefined,
			send: async (request) => await send(context, connection, request),
			cancelled: () => cancelSignal?.aborted === true,
			log: (line) => context.logger.info(line),
			now: Date.now,
			sleep,
			random: Math.random,
		},
	);
	pace.join(batching.groupSize);
	try {
		await loop.run();
	} finally {
		pace.leave();
	}

	const results = loop.items.map((item, index): IDataObject | Failed | undefined => {
		if (item.state === 'done') return item.json;
		if (item.state === 'failed')
			return new Failed(
				itemError(node, index, item.failure, connection, policy),
				failureFacts(item.failure),
			);
		return undefined;
	});
	const stopAt = loop.firstFailure;
	const stopped = stopAt === undefined ? undefined : results[stopAt];
	const complete = results.filter((result) => result !== undefined);
	const endsInError =
		stopped instanceof Failed || cancelSignal?.aborted === true || complete.length < results.length;
	// n8n may run the node again after an error, or after failed items with Retry On Fail on; n8n 1.85
	// runs every remaining try once a first try had failed items, so a try after one keeps the record too.
	const kept =
		endsInError ||
		(setting.retryOnFail && (earlierTry || complete.some((result) => result instanceof Failed)));
	if (record && kept) record.keep(loop.items.map(forRecord));
	else record?.drop();
	if (stopped instanceof Failed)
		throw withRetryOnFailWarning(
			withDoneBeforeStop(stopped.error, loop.items, stopAt ?? 0, record !== undefined),
			setting,
		);
	if (endsInError) {
		throw new NodeOperationError(node, 'The execution was stopped before every item was sent.');
	}
	addHints(context, executionHints(loop.report.summarize(loop.items.map(groupOf)), setting));
	return outputOf(complete, shape);
}
