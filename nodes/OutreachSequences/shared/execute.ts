import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { describeGiveUp } from './errors';
import { CREDENTIAL_TYPE, Field } from './names';
import type { Epoch } from './pacer';
import { RequestPacer } from './pacer';
import type { RetryDecision, RetryPolicy } from './retry';
import { backoffMs, decideRetry, retryPolicyOf } from './retry';
import { failuresAsItems, toolCallerType } from './tool';
import type { Attempt, Connection } from './transport';
import { attemptRequest, failureError } from './transport';
import type { OperationDefinition, OutreachRequest } from './types';
import { normalizeBaseUrl } from './validation';

/**
 * Requests in flight at once when Batching is off. Without a bound, 10,000
 * items would open 10,000 sockets at the same moment.
 */
export const MAX_IN_FLIGHT = 32;
/** n8n's own limit for a request when the user sets no timeout. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** A long wait is slept in steps this long, so that a stopped execution ends soon. */
const WAIT_STEP_MS = 500;

interface RequestOptionsValue {
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
	timeout?: number;
	allowUnauthorizedCerts?: boolean;
	rateLimitHandling?: { settings?: { enabled?: boolean; maxRetries?: number; maxWait?: number } };
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

/** How n8n runs this node, for toolCallerType. */
function callerTypeOf(context: IExecuteFunctions): string | undefined {
	const caller = context.getExecuteData().node;
	return toolCallerType({
		executeDataNodeType: caller.type,
		ownExecuteData: caller.name === context.getNode().name,
		// Not in n8n 1.x.
		toolExecution: typeof context.isToolExecution === 'function' && context.isToolExecution(),
	});
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

/** "1 item goes on", "3 items go on" */
function itemsGoOnText(count: number): string {
	return count === 1 ? '1 item goes on' : `${count} items go on`;
}

/** "1.5 s" */
function secondsText(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The items of one group, sent as fast as the pacer allows. A worker takes an
 * item, waits its turn at the gate, sends it, and puts it back at the front of
 * the queue when it is to be sent again. One worker at a time waits at the
 * gate, so that a pause or a paced rate wakes one waiter, not all of them.
 */
class Dispatcher {
	private inFlight = 0;
	private gate: Promise<unknown> = Promise.resolve();
	private completions: Array<() => void> = [];

	constructor(
		private readonly pacer: RequestPacer,
		/** Whether the item at this index is no longer to be sent. */
		private readonly stopped: (index: number) => boolean,
	) {}

	/**
	 * Runs `send` for every index that `prepare` accepts (an item it refuses
	 * never reaches the gate); `send` answers true to have the item sent again.
	 */
	async run(
		indices: number[],
		workers: number,
		prepare: (index: number) => boolean,
		send: (index: number, ticket: Epoch, remaining: () => number) => Promise<boolean>,
	) {
		const queue = [...indices];
		const remaining = () => queue.length + this.inFlight;
		const worker = async () => {
			for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
				if (this.stopped(index) || !prepare(index)) continue;
				const ticket = await this.turn(index);
				if (!ticket) continue;
				this.inFlight++;
				let again = false;
				try {
					again = await send(index, ticket, remaining);
				} finally {
					this.inFlight--;
					for (const wake of this.completions.splice(0)) wake();
				}
				if (again) queue.unshift(index);
			}
		};
		await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, worker));
	}

	/** Waits until the pacer lets one more request start; undefined once the item is not to be sent. */
	private turn(index: number): Promise<Epoch | undefined> {
		const turn = this.gate.then(async () => {
			for (;;) {
				if (this.stopped(index)) return undefined;
				const wait = this.pacer.readyIn(this.inFlight);
				if (wait === 0) return this.pacer.start();
				if (wait === Infinity) await new Promise<void>((wake) => this.completions.push(wake));
				else await sleep(Math.min(wait, WAIT_STEP_MS));
			}
		});
		this.gate = turn.catch(() => undefined);
		return turn;
	}
}

/**
 * Run one operation over every input item: exactly one output item per input
 * item, in input order, each with its pairedItem. An item the service pushed
 * back on (see retry.ts) is sent again before it counts as failed. With On
 * Error set to stop, nothing new starts after a failure, and the failure of
 * the lowest item is thrown.
 */
export async function runOperation(
	context: IExecuteFunctions,
	definition: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const continueOnFail = failuresAsItems(context.continueOnFail(), context.getNode().type, callerTypeOf(context));
	const options = context.getNodeParameter(Field.requestOptions, 0, {}) as RequestOptionsValue;
	const pace = paceOf(options);
	const policy: RetryPolicy = retryPolicyOf(options.rateLimitHandling?.settings);
	const pacer = new RequestPacer(pace.groupSize, Date.now);
	const cancelled = context.getExecutionCancelSignal?.();
	const output: INodeExecutionData[] = new Array(items.length);
	const requests: Array<OutreachRequest | undefined> = new Array(items.length);
	const attempts: number[] = new Array(items.length).fill(0);
	let stopError: { itemIndex: number; error: Error } | undefined;
	/** Whether the service has answered any request of this run, with any status. */
	let serviceReached = false;
	// On Error = Stop: items after the failing one are not sent; earlier ones still are, as they would have been in order.
	const stopped = (index = Infinity) => cancelled?.aborted === true || (stopError !== undefined && index > stopError.itemIndex);

	let connection: Connection | undefined;
	let setupError: unknown;
	try {
		connection = await connect(context, options);
	} catch (error) {
		setupError = error;
	}

	const fail = (itemIndex: number, caught: unknown) => {
		const error = asItemError(context, caught, itemIndex);
		if (!continueOnFail) {
			if (!stopError || itemIndex < stopError.itemIndex) stopError = { itemIndex, error };
			return;
		}
		// Only the message: an item that holds the error object breaks
		// $('Outreach Sequences').item for every node downstream.
		output[itemIndex] = { json: { error: error.message }, pairedItem: { item: itemIndex } };
	};

	/** What to do with a failed attempt: wait and send again, or fail the item. */
	const retryOrFail = (itemIndex: number, attempt: Attempt & { ok: false }, ticket: Epoch, remaining: () => number): boolean => {
		const startsSlowdown = pacer.wouldStartSlowdown(ticket);
		const decision: RetryDecision = decideRetry(attempt.failure, {
			readOnly: definition.readOnly === true,
			policy,
			attempts: attempts[itemIndex],
			backoffMs: backoffMs(pacer.consecutiveSlowdowns + (startsSlowdown ? 1 : 0), Math.random()),
			nowMs: Date.now(),
			serviceReached,
		});
		if (decision.retry) {
			if (pacer.pushedBack(ticket, decision.waitMs)) {
				context.logger.info(
					`Outreach Sequences: the service pushed back (${describeFailure(attempt)}); no new request starts for ${secondsText(decision.waitMs)}, then ${itemsGoOnText(remaining())} at up to ${pacer.inFlightLimit} in flight`,
				);
			}
			return true;
		}
		const text =
			decision.reason === 'notSafe'
				? attempt.text
				: describeGiveUp(attempt.text, {
						reason: decision.reason,
						attempts: attempts[itemIndex],
						askedMs: decision.waitMs,
						maxRetries: policy.maxRetries,
						maxWaitMs: policy.maxWaitMs,
					});
		fail(itemIndex, failureError(context.getNode(), connection!, text, itemIndex, attempt.httpCode));
		return false;
	};

	const send = async (itemIndex: number, ticket: Epoch, remaining: () => number): Promise<boolean> => {
		try {
			const request = requests[itemIndex]!;
			attempts[itemIndex]++;
			const attempt = await attemptRequest(context, connection!, request);
			if (attempt.ok || attempt.failure.kind === 'http') serviceReached = true;
			if (attempt.ok) {
				pacer.succeeded(ticket);
				output[itemIndex] = { json: attempt.json as IDataObject, pairedItem: { item: itemIndex } };
				return false;
			}
			return retryOrFail(itemIndex, attempt, ticket, remaining);
		} catch (caught) {
			fail(itemIndex, caught);
			return false;
		}
	};

	/** Builds an item's request once; an item that fails validation is never sent. */
	const prepare = (itemIndex: number): boolean => {
		if (requests[itemIndex]) return true;
		try {
			if (!connection) throw setupFailure(context, setupError, itemIndex);
			requests[itemIndex] = definition.buildRequest(context, itemIndex);
			return true;
		} catch (caught) {
			fail(itemIndex, caught);
			return false;
		}
	};

	const dispatcher = new Dispatcher(pacer, stopped);
	let next = 0;
	while (next < items.length && !stopped()) {
		if (next > 0 && pace.pauseMs > 0) await sleep(pace.pauseMs);
		const end = pace.batched ? Math.min(next + pace.groupSize, items.length) : items.length;
		const group = Array.from({ length: end - next }, (_, offset) => next + offset);
		next = end;
		await dispatcher.run(group, pace.groupSize, prepare, send);
	}

	if (stopError) throw stopError.error;
	if (cancelled?.aborted) throw new NodeOperationError(context.getNode(), 'The execution was stopped before every item was sent.');
	return [output];
}

function describeFailure(attempt: Attempt & { ok: false }): string {
	const { failure } = attempt;
	if (failure.kind === 'network') return `network: ${failure.fault}`;
	return `HTTP ${failure.status}${failure.retryAfter === undefined ? '' : `, Retry-After: ${failure.retryAfter}`}`;
}
