/** What a run reads of n8n: Batching and the connection once, and the items' parameters for the builders. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_TIMEOUT_MS,
	MAX_BATCH_SIZE,
	MAX_IN_FLIGHT,
	NO_PAUSE_MS,
} from '../../helpers/defaults';
import type { ItemReader, RequestOptionsValue } from '../../helpers/interfaces';
import { redact } from '../../helpers/secret';
import { normalizeBaseUrl } from '../../helpers/validation';
import type { Batching } from '../loop/loop';
import type { Connection } from '../../transport/index';

/** Read per item where used, so an expression failing for one item fails only that item. */
const PER_ITEM: ReadonlySet<string> = new Set(['unconfirmedEarlierTry', 'skipDoneBefore']);

export function runOptionsOf(context: IExecuteFunctions): RequestOptionsValue {
	const raw = context.getNode().parameters.requestOptions;
	const options: Record<string, unknown> = {};
	for (const name of typeof raw === 'object' && raw !== null ? Object.keys(raw) : [])
		if (!PER_ITEM.has(name)) options[name] = context.getNodeParameter(`requestOptions.${name}`, 0);
	return options as RequestOptionsValue;
}

/** Batching added at its defaults must run exactly as the node does without it. */
export function batchingOf(options: RequestOptionsValue): Batching {
	const batch = options.batching?.batch;
	if (!batch) return { groupSize: MAX_IN_FLIGHT, pauseMs: NO_PAUSE_MS, fixed: false };
	const size = Number(batch.batchSize);
	const pause = Number(batch.batchInterval);
	return {
		groupSize: Number.isInteger(size) && size > 0 ? Math.min(size, MAX_BATCH_SIZE) : 1,
		pauseMs: Number.isFinite(pause) && pause > 0 ? pause : NO_PAUSE_MS,
		fixed: batch.limit === 'fixed',
	};
}

export async function connect(
	context: IExecuteFunctions,
	options: RequestOptionsValue,
): Promise<Connection> {
	const node = context.getNode();
	const type = 'outreachSequencesApi';
	const data = await context.getCredentials(type);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!baseUrl.ok) throw new NodeOperationError(node, redact(baseUrl.problem, data.apiKey));
	const reference = node.credentials?.[type];
	const timeout = Number(options.timeout);
	return {
		baseUrl: baseUrl.value,
		credentials: { id: reference?.id ?? '', name: reference?.name ?? '', type, data },
		credentialName: reference?.name ?? 'Outreach Sequences API',
		timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
		allowUnauthorizedCerts: options.allowUnauthorizedCerts === true,
	};
}

export function setupFailure(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	const { message, description } = error as { message?: string; description?: string | null };
	const options = { itemIndex, description: description ?? undefined };
	return new NodeOperationError(context.getNode(), message ?? String(error), options);
}

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	return typeof value === 'object' && value !== null && Object.values(value).some(holdsExpression);
}

/** A parameter with no expression is worked out once per run, not per item. */
export function itemReader(context: IExecuteFunctions): ItemReader {
	const node = context.getNode();
	const kept = new Map<string, unknown>();
	const parameter = (name: string, itemIndex: number, fallback?: unknown): unknown =>
		context.getNodeParameter(name, itemIndex, fallback);
	return {
		node,
		parameter,
		perRun<T>(name: string, itemIndex: number, fallback: unknown, derive: (value: unknown) => T) {
			if (kept.has(name)) return kept.get(name) as T;
			const value = derive(parameter(name, itemIndex, fallback));
			if (Object.hasOwn(node.parameters, name) && !holdsExpression(node.parameters[name]))
				kept.set(name, value);
			return value;
		},
	};
}
