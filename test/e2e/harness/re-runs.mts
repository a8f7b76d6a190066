// What the suites about n8n running the node again share: workflows that
// create the sequences an event names, the sandbox faults they meet, and
// what the sandbox holds and was sent, name by name.
import type { Fault, RecordedRequest, SandboxProcess } from '../../harness/sandbox.mts';
import { SANDBOX_CREDENTIAL_ID, type N8n } from './stage.mts';
import {
	MANUAL_TRIGGER,
	outreachCredential,
	outreachNode,
	webhookTrigger,
	workflowOf,
	type WorkflowNode,
} from './workflows.mts';

export const CREATE_NODE = 'Create Sequence';

/** `count` items, each naming a sequence: `<prefix>1` … `<prefix><count>`. */
export const names = (count: number, prefix = 'S') =>
	Array.from({ length: count }, (_, index) => ({ name: `${prefix}${index + 1}` }));

export const nameOf = (request: RecordedRequest) =>
	(JSON.parse(request.body) as { name: string }).name;

export interface CreateSettings {
	/** Node settings: onError, retryOnFail, … */
	settings?: Record<string, unknown>;
	/** Request Options, as the node stores them. */
	requestOptions?: Record<string, unknown>;
}

/** Create Sequence, one sequence per item, named by the item's `name`. */
export function createNode({ settings = {}, requestOptions }: CreateSettings = {}): WorkflowNode {
	return outreachNode(
		CREATE_NODE,
		{
			resource: 'sequence',
			operation: 'create',
			name: '={{ $json.name }}',
			...(requestOptions ? { requestOptions } : {}),
		},
		{ credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'), ...settings },
	);
}

/** The same Create Sequence on the credential `id`: a service of its own. */
export const onCredential = (id: string, create: CreateSettings = {}): CreateSettings => ({
	...create,
	settings: { ...create.settings, credentials: outreachCredential(id) },
});

/** Request Options › Skip Items Done Before, keyed by name, with its default window; failures become items. */
export const KEYED: CreateSettings = {
	settings: { onError: 'continueRegularOutput' },
	requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.name }}' } } },
};

const splitOut = (field: string): WorkflowNode => ({
	name: 'Split Out',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
});

/**
 * Webhook › Split Out (the event's names) › Create Sequence. The webhook
 * answers with every item the node put out, or at once with `onReceived`.
 */
export function createsWhatTheEventLists(
	id: string,
	create: CreateSettings = {},
	responseMode: 'lastNode' | 'onReceived' = 'lastNode',
) {
	const answer =
		responseMode === 'lastNode' ? { responseData: 'allEntries' } : { responseMode: 'onReceived' };
	return workflowOf(id, [webhookTrigger(id, answer), splitOut('body.names'), createNode(create)]);
}

/** Manual Trigger › Set (these names) › Split Out › Create Sequence: what a user runs with Execute workflow. */
export function createsTheseNames(
	id: string,
	list: Array<{ name: string }>,
	create: CreateSettings = {},
) {
	return workflowOf(id, [
		MANUAL_TRIGGER,
		{
			name: 'Names',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ names: list }), options: {} },
		},
		splitOut('names'),
		createNode(create),
	]);
}

const createOf = (name: string) => ({
	method: 'POST',
	pathPrefix: '/v1/sequences',
	bodyContains: `"name":"${name}"`,
});

/** A create of `name` answered 500 once, before the service wrote it. */
export const failsOnceBeforeWriting = (name: string): Fault => ({
	...createOf(name),
	status: 500,
	body: { message: 'gateway' },
	times: 1,
});

/** Every create of `name` is carried out, then answered 500: the service made it, and the node can't know. */
export const writtenThenFailsEachTime = (name: string): Fault => ({
	...createOf(name),
	status: 500,
	body: { message: 'gateway' },
	afterWrite: true,
});

/** A webhook call with the event `{ names }`; the answer's status and JSON body. */
export async function postEvent(
	n8n: N8n,
	path: string,
	list: Array<{ name: string }>,
): Promise<{ status: number; body: unknown }> {
	const response = await fetch(`${n8n.server.url}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ names: list }),
	});
	return { status: response.status, body: await response.json().catch(() => undefined) };
}

/** By name: the sequences the sandbox holds, and the create requests it received. */
export interface ByName {
	created: Map<string, number>;
	sent: Map<string, number>;
	/** The records the sandbox holds, by name (the last one when a name was created twice). */
	records: Map<string, Record<string, unknown>>;
}

export async function byName(sandbox: SandboxProcess): Promise<ByName> {
	const created = new Map<string, number>();
	const records = new Map<string, Record<string, unknown>>();
	for (const record of await sandbox.records('sequences')) {
		const name = String(record.name);
		created.set(name, (created.get(name) ?? 0) + 1);
		records.set(name, record);
	}
	const sent = new Map<string, number>();
	for (const request of await sandbox.requests())
		if (request.method === 'POST' && request.url.startsWith('/v1/sequences'))
			sent.set(nameOf(request), (sent.get(nameOf(request)) ?? 0) + 1);
	return { created, sent, records };
}

/** Each name is held exactly once. */
export function expectEachOnce(after: ByName, list: Array<{ name: string }>): void {
	for (const { name } of list)
		expect({ name, held: after.created.get(name) ?? 0 }).toEqual({ name, held: 1 });
}

/** The names counted more than once. */
export const twice = (counts: Map<string, number>) =>
	[...counts]
		.filter(([, count]) => count > 1)
		.map(([name]) => name)
		.sort();
