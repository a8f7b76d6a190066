/** Runs an operation for n8n: connect, open the memory, run the loop, one output item per input item. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { OperationDefinition } from '../../helpers/interfaces';
import type { ItemFailure } from '../outcome/failedItem';
import { failedItemShape, failureFacts, failureGroup } from '../outcome/failedItem';
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
import { unconfirmedOf } from '../memory/reRun';
import { itemReader } from './itemReader';
import { addHints, Failed, labelOf, outputOf, resultsOf, wordsOf } from './output';
import { batchingOf, connect, runOptionsOf, setupFailure } from './settings';
import { withDoneBeforeStop, withRetryOnFailWarning } from './stopError';
import { callerTypeOf, failuresAsItems, isToolVariant } from './tool';

export async function runOperation(
	context: IExecuteFunctions,
	definition: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const options = runOptionsOf(context);
	const asTool = isToolVariant(node.type);
	const itemCount = context.getInputData().length;
	// As a tool, the caller decides whether a failure is an item or thrown; otherwise On Error does.
	const failuresBecomeItems = failuresAsItems(
		context.continueOnFail(),
		node.type,
		callerTypeOf(context),
	);
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
		if (!failuresBecomeItems && itemCount > 0)
			throw withRetryOnFailWarning(setupFailure(context, error, 0), setting);
		const notSent: ItemFailure = { kind: 'notSent', error };
		const groups = Array.from({ length: itemCount }, () => failureGroup(notSent));
		addHints(context, executionHints(new RunReport().summarize(groups), setting));
		const failed = groups.map(
			(_, index) => new Failed(setupFailure(context, error, index), failureFacts(notSent)),
		);
		return outputOf(failed, shape);
	}

	const reader = itemReader(context);
	const memory = await openMemory(context, definition, connection, asTool);
	addHints(context, memory.hints);
	const batching = batchingOf(options);
	const pace = servicePace(
		connection.baseUrl,
		connection.credentials.data?.apiKey,
		batching.groupSize,
	);
	if (pace.learned)
		context.logger.info(
			sharedPaceLogLine(
				connection.baseUrl,
				pace.pacer.pausedFor(),
				pace.pacer.sendRate,
				pace.pacer.inFlightLimit,
			),
		);
	const cancelSignal = context.getExecutionCancelSignal?.();
	const loop = new RunLoop(
		itemCount,
		{ batching, policy, readOnly: setting.readOnly, stopAtFirstFailure: !failuresBecomeItems },
		{
			pace,
			prepare: (index) => definition.buildRequest(reader, index),
			prior: (index, request) => memory.prior(index, request),
			claim: async (index, request) => await memory.claim(index, request),
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
	pace.join(batching.groupSize, batching.fixed);
	let ended = false;
	try {
		await loop.run();
		ended = true;
	} finally {
		pace.leave();
		// It threw and n8n may run the node again: keep what each send did before the error goes on.
		if (!ended) {
			const results = resultsOf(node, loop, connection, policy);
			await memory
				.finish(loop.items, (index) => wordsOf(results[index]), true)
				.catch((reason: unknown) =>
					context.logger.warn(
						`Outreach Sequences: what this run sent could not be kept for a retry: ${(reason as Error)?.message ?? String(reason)}`,
					),
				);
		}
	}

	// Each lookup of an unreached item evaluates its parameters, so n8n's event loop gets a turn every 32.
	if (loop.firstFailure !== undefined && memory.earlierTry)
		await loop.settle((index) => ((index + 1) % 32 === 0 ? sleep(0) : undefined));
	const results = resultsOf(node, loop, connection, policy);
	const stopAt = loop.firstFailure;
	const stopped = stopAt === undefined ? undefined : results[stopAt];
	const complete = results.filter((result) => result !== undefined);
	const endsInError =
		stopped instanceof Failed || cancelSignal?.aborted === true || complete.length < itemCount;
	// n8n runs every remaining Retry On Fail try once one had failed items, so later tries keep the record too.
	const kept =
		endsInError ||
		(setting.retryOnFail &&
			(memory.earlierTry || complete.some((result) => result instanceof Failed)));
	await memory.finish(loop.items, (index) => wordsOf(results[index]), kept);
	setting.subject = loop.items.find((item) => 'request' in item)?.request?.subject;
	setting.windowMs = memory.windowMs;
	if (stopped instanceof Failed)
		throw withRetryOnFailWarning(
			withDoneBeforeStop(stopped.error, loop.items, stopAt ?? 0, setting),
			setting,
		);
	if (endsInError)
		throw new NodeOperationError(node, 'The execution was stopped before every item was sent.');
	const summary = loop.report.summarize(
		loop.items.map((item) => (item.state === 'failed' ? failureGroup(item.failure) : undefined)),
		loop.items.map(labelOf),
	);
	addHints(context, executionHints(summary, setting));
	return outputOf(complete, shape);
}
