/** Runs an operation for n8n: connect, open the memory, run the loop, one output item per input item. */
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type {
	RequestOptionsValue,
	OperationDefinition,
	OutreachRequest,
} from '../../helpers/interfaces';
import type { FailedItemShape, ItemFailure } from '../outcome/failedItem';
import { failedItemShape, failureFacts } from '../outcome/failedItem';
import type { HintSetting } from '../outcome/hints';
import { executionHints } from '../outcome/hints';
import { itemReader } from './itemReader';
import { RunReport } from '../outcome/runReport';
import { sharedPaceLogLine } from '../outcome/logLines';
import { RunLoop } from '../loop/loop';
import { retryPolicyOf } from '../loop/retry';
import type { RetryPolicy } from '../loop/retry';
import { servicePace } from '../pace/servicePace';
import type { Connection } from '../../transport/index';
import { send } from '../../transport/index';
import type { Memory } from '../memory/memory';
import { openMemory } from '../memory/memory';
import { addHints, Failed, groupOf, labelOf, outputOf, resultsOf, wordsOf } from './output';
import { batchingOf, callerTypeOf, connect, runOptionsOf, setupFailure } from './settings';
import { withDoneBeforeStop, withRetryOnFailWarning } from './stopError';
import { failuresAsItems, isToolVariant } from './tool';

interface Run {
	context: IExecuteFunctions;
	definition: OperationDefinition;
	itemCount: number;
	failuresBecomeItems: boolean;
	asTool: boolean;
	shape: FailedItemShape;
	setting: HintSetting;
	options: RequestOptionsValue;
	policy: RetryPolicy;
	cancelSignal?: AbortSignal;
}

function unconfirmedForAllOf(node: INode): HintSetting['unconfirmedForAll'] {
	const options = node.parameters.requestOptions as Record<string, unknown> | undefined;
	const raw = options?.unconfirmedEarlierTry;
	return raw === 'sendAgain' || raw === 'countAsDone' ? raw : undefined;
}

function readRun(context: IExecuteFunctions, definition: OperationDefinition): Run {
	const node = context.getNode();
	const options = runOptionsOf(context);
	const asTool = isToolVariant(node.type);
	return {
		context,
		definition,
		itemCount: context.getInputData().length,
		// As a tool, the caller decides whether a failure is an item or thrown; otherwise On Error does.
		failuresBecomeItems: failuresAsItems(
			context.continueOnFail(),
			node.type,
			callerTypeOf(context),
		),
		asTool,
		shape: failedItemShape(asTool),
		setting: {
			retryOnFail: node.retryOnFail === true,
			readOnly: definition.readOnly === true,
			unconfirmedForAll: unconfirmedForAllOf(node),
		},
		options,
		policy: retryPolicyOf(options),
		cancelSignal: context.getExecutionCancelSignal?.(),
	};
}

function failEveryItem(run: Run, error: unknown): INodeExecutionData[][] {
	const { context, setting } = run;
	if (!run.failuresBecomeItems && run.itemCount > 0)
		throw withRetryOnFailWarning(setupFailure(context, error, 0), setting);
	const notSent: ItemFailure = { kind: 'notSent', error };
	const groups = Array.from({ length: run.itemCount }, () =>
		groupOf({ state: 'failed', failure: notSent }),
	);
	addHints(context, executionHints(new RunReport().summarize(groups), setting));
	const failed = Array.from(
		{ length: run.itemCount },
		(_, index) => new Failed(setupFailure(context, error, index), failureFacts(notSent)),
	);
	return outputOf(failed, run.shape);
}

async function runLoop(
	run: Run,
	connection: Connection,
	memory: Memory,
	prepare: (index: number) => OutreachRequest,
): Promise<RunLoop> {
	const { context, definition, options } = run;
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
	const loop = new RunLoop(
		run.itemCount,
		{
			batching,
			policy: run.policy,
			readOnly: definition.readOnly === true,
			stopAtFirstFailure: !run.failuresBecomeItems,
		},
		{
			pace,
			prepare,
			prior: (index, request) => memory.prior(index, request),
			claim: async (index, request) => await memory.claim(index, request),
			send: async (request, index) => {
				const attempt = await send(context, connection, request);
				if (attempt.ok) memory.confirmed(index, attempt.json);
				return attempt;
			},
			cancelled: () => run.cancelSignal?.aborted === true,
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
			const results = resultsOf(run.context.getNode(), loop, connection, run.policy);
			await memory
				.finish(loop.items, (index) => wordsOf(results[index]), true)
				.catch((reason: unknown) =>
					context.logger.warn(
						`Outreach Sequences: what this run sent could not be kept for a retry: ${(reason as Error)?.message ?? String(reason)}`,
					),
				);
		}
	}
	return loop;
}

export async function runOperation(
	context: IExecuteFunctions,
	definition: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const run = readRun(context, definition);
	let connection: Connection;
	try {
		connection = await connect(context, run.options);
	} catch (error) {
		return failEveryItem(run, error);
	}
	const reader = itemReader(context);
	const memory = await openMemory(context, definition, connection, run.asTool);
	addHints(context, memory.hints);
	const loop = await runLoop(run, connection, memory, (index) =>
		definition.buildRequest(reader, index),
	);
	const setting: HintSetting = {
		...run.setting,
		subject: loop.items.find((item) => 'request' in item)?.request?.subject,
		windowMs: memory.windowMs,
	};

	// Each lookup of an unreached item evaluates its parameters, so n8n's event loop gets a turn every 32.
	if (loop.firstFailure !== undefined && memory.earlierTry)
		await loop.settle((index) => ((index + 1) % 32 === 0 ? sleep(0) : undefined));
	const results = resultsOf(run.context.getNode(), loop, connection, run.policy);
	const stopAt = loop.firstFailure;
	const stopped = stopAt === undefined ? undefined : results[stopAt];
	const complete = results.filter((result) => result !== undefined);
	const cancelled = run.cancelSignal?.aborted === true;
	const endsInError = stopped instanceof Failed || cancelled || complete.length < results.length;
	// n8n runs every remaining Retry On Fail try once one had failed items, so later tries keep the record too.
	const kept =
		endsInError ||
		(setting.retryOnFail &&
			(memory.earlierTry || complete.some((result) => result instanceof Failed)));
	await memory.finish(loop.items, (index) => wordsOf(results[index]), kept);
	if (stopped instanceof Failed)
		throw withRetryOnFailWarning(
			withDoneBeforeStop(stopped.error, loop.items, stopAt ?? 0, setting),
			setting,
		);
	if (endsInError)
		throw new NodeOperationError(
			context.getNode(),
			'The execution was stopped before every item was sent.',
		);
	const summary = loop.report.summarize(loop.items.map(groupOf), loop.items.map(labelOf));
	addHints(context, executionHints(summary, setting));
	return outputOf(complete, run.shape);
}
