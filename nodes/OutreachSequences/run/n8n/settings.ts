/**
 * What a run reads of n8n before it starts: Batching, how n8n runs the node
 * (as a step or as a tool), and the connection (the credential and the Base
 * URL), worked out once per run.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_TIMEOUT_MS,
	MAX_BATCH_SIZE,
	MAX_IN_FLIGHT,
	NO_PAUSE_MS,
} from '../../helpers/defaults';
import type { RequestOptionsValue } from '../../helpers/names';
import { BatchLimit, CREDENTIAL_TYPE, defaultBatchLimit, Field } from '../../helpers/names';
import { redact } from '../../helpers/secret';
import { normalizeBaseUrl } from '../../helpers/validation';
import type { Batching } from '../loop/loop';
import type { Connection } from '../../transport/index';
import { toolCallerType } from './tool';

/** The options read per item where they are used: an expression in one that fails for an item fails that item. */
const PER_ITEM: ReadonlySet<string> = new Set([Field.unconfirmed, Field.skipDoneBefore]);

/** Request Options as a run reads them once, at item 0: every option but those read per item. */
export function runOptionsOf(context: IExecuteFunctions): RequestOptionsValue {
	const raw = context.getNode().parameters[Field.requestOptions];
	const options: Record<string, unknown> = {};
	for (const name of typeof raw === 'object' && raw !== null ? Object.keys(raw) : [])
		if (!PER_ITEM.has(name))
			options[name] = context.getNodeParameter(`${Field.requestOptions}.${name}`, 0);
	return options as RequestOptionsValue;
}

/**
 * Request Options › Batching. Items per Batch caps the requests in flight
 * (at most MAX_BATCH_SIZE). With an interval of 0 the cap is a rolling window
 * (a request starts as another ends), as without the option, whose cap is
 * MAX_IN_FLIGHT; Limit Automatic reaches it by the pacer's slow start, as
 * without the option: so the option added at its defaults runs as the node
 * does without it. Limit Fixed opens the cap from the first request. With an
 * interval, the items go in batches: each waits for the one before to end,
 * then for the interval.
 */
export function batchingOf(options: RequestOptionsValue): Batching {
	const batch = options[Field.batching]?.[Field.batch];
	if (!batch)
		return { groupSize: MAX_IN_FLIGHT, pauseMs: NO_PAUSE_MS, batched: false, fixed: false };
	const size = Number(batch[Field.batchSize]);
	const pause = Number(batch[Field.batchInterval]);
	const pauseMs = Number.isFinite(pause) && pause > 0 ? pause : NO_PAUSE_MS;
	return {
		groupSize: Number.isInteger(size) && size > 0 ? Math.min(size, MAX_BATCH_SIZE) : 1,
		pauseMs,
		batched: pauseMs > 0,
		// n8n does not save a value left at its default.
		fixed: (batch[Field.batchLimit] ?? defaultBatchLimit) === BatchLimit.Fixed,
	};
}

export async function connect(
	context: IExecuteFunctions,
	options: RequestOptionsValue,
): Promise<Connection> {
	const node = context.getNode();
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!baseUrl.ok) throw new NodeOperationError(node, redact(baseUrl.problem, data.apiKey));
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
export function setupFailure(
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
export function callerTypeOf(context: IExecuteFunctions): string | undefined {
	const caller = context.getExecuteData().node;
	return toolCallerType({
		executeDataNodeType: caller.type,
		ownExecuteData: caller.name === context.getNode().name,
		// Not in n8n 1.x.
		toolExecution: typeof context.isToolExecution === 'function' && context.isToolExecution(),
	});
}
