/** Runs an operation for n8n: connect, open the memory, run the loop, one paired output item per input item. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { OperationDefinition } from '../../helpers/interfaces';
import type { FailedItemShape, FailureFacts, ItemFailure } from '../outcome/failedItem';
import { failedItemJson, failedItemShape, failureFacts, failureGroup } from '../outcome/failedItem';
import type { HintSetting } from '../outcome/hints';
import { executionHints } from '../outcome/hints';
import { RunReport } from '../outcome/runReport';
import { sharedPaceLogLine } from '../outcome/logLines';
import { RunLoop } from '../loop/loop';
import { retryPolicyOf } from '../loop/retry';
import { servicePace } from '../pace/servicePace';
import type { Connection } from '../../transport/index';
import { send } from '../../transport/index';
import { openMemory } from '../memory/memory';
import { unconfirmedOf } from '../memory/record';
import { itemError } from './itemError';
import { batchingOf, connect, itemReader, runOptionsOf, setupFailure } from './settings';
import { withDoneBeforeStop, withRetryOnFailWarning } from './stopError';
import { callerTypeOf, failuresAsItems, isToolVariant } from './tool';

class Failed {
	constructor(
		readonly error: Error & { description?: string | null },
		readonly facts: FailureFacts,
	) {}
}

// Only the message: an item holding the error object breaks $('Outreach Sequences').item downstream.
const outputOf = (results: Array<IDataObject | Failed>, shape: FailedItemShape) => [
	results.map((result, index) => ({
		json:
			result instanceof Failed ? failedItemJson(result.error.message, result.facts, shape) : result,
		pairedItem: { item: index },
	})),
];

/** The earlier try's words, for the record: what a retry says of an item the service may have acted on. */
function wordsOf(result: IDataObject | Failed | undefined) {
	if (!(result instanceof Failed)) return undefined;
	const { statusCode, networkError } = result.facts;
	return {
		message: result.error.message,
		description: result.error.description ?? '',
		statusCode,
		networkError,
	};
}

export async function runOperation(
	context: IExecuteFunctions,
	definition: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const options = runOptionsOf(context);
	const asTool = isToolVariant(node.type);
	const itemCount = context.getInputData().length;
	// As a tool, the caller decides whether a failure is an item or thrown; otherwise On Error does.
	const asItems = failuresAsItems(context.continueOnFail(), node.type, callerTypeOf(context));
	const shape = failedItemShape(asTool);
	const forAll = unconfirmedOf(
		(node.parameters.requestOptions as IDataObject | undefined)?.unconfirmedEarlierTry,
	);
	const setting: HintSetting = {
		retryOnFail: node.retryOnFail === true,
		readOnly: definition.readOnly === true,
		unconfirmedForAll: forAll === 'fail' ? undefined : forAll,
	};
	const policy = retryPolicyOf(options);
	let connection: Connection;
	try {
		connection = await connect(context, options);
	} catch (error) {
		if (!asItems && itemCount > 0)
			throw withRetryOnFailWarning(setupFailure(context, error, 0), setting);
		const notSent: ItemFailure = { kind: 'notSent', error };
		const groups = Array.from({ length: itemCount }, () => failureGroup(notSent));
		context.addExecutionHints?.(...executionHints(new RunReport().summarize(groups), setting));
		const failed = groups.map(
			(_, index) => new Failed(setupFailure(context, error, index), failureFacts(notSent)),
		);
		return outputOf(failed, shape);
	}

	const reader = itemReader(context);
	const memory = await openMemory(context, definition, connection, asTool);
	context.addExecutionHints?.(...memory.hints); // Older n8n has none.
	const batching = batchingOf(options);
	const { baseUrl, credentials } = connection;
	const pace = servicePace(baseUrl, credentials.data?.apiKey, batching.groupSize);
	const { pacer } = pace;
	if (pace.learned)
		context.logger.info(
			sharedPaceLogLine(baseUrl, pacer.pausedFor(), pacer.sendRate, pacer.inFlightLimit),
		);
	const cancelSignal = context.getExecutionCancelSignal?.();
	const loop = new RunLoop(
		itemCount,
		{ batching, policy, readOnly: setting.readOnly, stopAtFirstFailure: !asItems },
		{
			pace,
			prepare: (index) => definition.buildRequest(reader, index),
			prior: memory.prior,
			claim: memory.claim,
			send: async (request, index) => {
				const attempt = await send(context, connection, request);
				if (attempt.ok) memory.confirmed(index, attempt.json);
				return attempt;
			},
			cancelled: () => cancelSignal?.aborted === true,
			log: (line) => context.logger.info(line),
			now: Date.now,
			sleep,
			random: Math.random,
		},
	);
	const resultsNow = () =>
		loop.items.map((item, index) => {
			if (item.state === 'done') return item.json;
			if (item.state !== 'failed') return undefined;
			const error = itemError(node, index, item.failure, connection, policy);
			return new Failed(error, failureFacts(item.failure));
		});
	pace.join(batching.groupSize, batching.fixed);
	await loop
		.run()
		.finally(() => pace.leave())
		.catch(async (error: unknown) => {
			// It threw and n8n may run the node again: keep what each send did before the error goes on.
			const lost = 'Outreach Sequences: what this run sent could not be kept for a retry';
			const words = resultsNow().map(wordsOf);
			await memory
				.finish(loop.items, words, true)
				.catch((reason: Error) => context.logger.warn(`${lost}: ${reason?.message}`));
			throw error;
		});

	// Each lookup of an unreached item evaluates its parameters, so n8n's event loop gets a turn every 32.
	if (loop.firstFailure !== undefined && memory.earlierTry)
		await loop.settle((index) => ((index + 1) % 32 === 0 ? sleep(0) : undefined));
	const results = resultsNow();
	const stopped = results[loop.firstFailure ?? -1];
	const complete = results.filter((result) => result !== undefined);
	const endsInError =
		stopped instanceof Failed || cancelSignal?.aborted === true || complete.length < itemCount;
	// n8n runs every remaining Retry On Fail try once one had failed items, so later tries keep the record too.
	const someFailed = complete.some((result) => result instanceof Failed);
	const kept = endsInError || (setting.retryOnFail && (memory.earlierTry || someFailed));
	await memory.finish(loop.items, results.map(wordsOf), kept);
	setting.subject = loop.items.find((item) => 'request' in item)?.request?.subject;
	setting.windowMs = memory.windowMs;
	if (stopped instanceof Failed)
		throw withRetryOnFailWarning(
			withDoneBeforeStop(stopped.error, loop.items, loop.firstFailure ?? 0, setting),
			setting,
		);
	if (endsInError)
		throw new NodeOperationError(node, 'The execution was stopped before every item was sent.');
	const summary = loop.report.summarize(
		loop.items.map((item) => (item.state === 'failed' ? failureGroup(item.failure) : undefined)),
		loop.items.map((item) => {
			const holder = item.state === 'failed' ? item.failure : item;
			const subject = 'request' in holder ? holder.request.subject : undefined;
			return subject?.name ?? subject?.id;
		}),
	);
	context.addExecutionHints?.(...executionHints(summary, setting));
	return outputOf(complete, shape);
}
