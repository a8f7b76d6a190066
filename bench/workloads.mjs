// The workflows the benchmarks run: the contender nodes (this node, the HTTP
// Request node, and that with Retry On Fail; n8n's floor, a Set node), the
// workflow around them, and the workloads of `npm run bench` as each contender
// is configured.
import { NODE_TYPE } from '../scripts/n8n/versions.mts';

/** Manual Trigger → Code node making `count` items (`jsItem` is the item's JS expression over `index`) → the contender node. */
export function benchWorkflow(id, count, jsItem, contender) {
	return {
		id,
		name: id,
		active: false,
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'items',
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${count} }, (_, index) => ({ json: ${jsItem} }));`,
				},
			},
			{ id: 'contender', name: 'Contender', position: [440, 0], ...contender },
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Contender', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** This node as a workflow node, with the bench credential. */
export const oursNode = (parameters) => ({
	type: NODE_TYPE,
	typeVersion: 1,
	parameters,
	credentials: { outreachSequencesApi: { id: 'benchOutreach', name: 'Outreach (bench)' } },
});

/**
 * The contenders most parts run side by side: this node on default settings, the HTTP Request node on
 * default settings (both with On Error = Continue, to count items), and the HTTP Request node with
 * Settings › Retry On Fail (5 tries, 5 s apart), which acts only with On Error = Stop.
 */
export const CONTENDERS = [
	{ key: 'ours', label: 'This node, default settings', onError: 'continueRegularOutput' },
	{ key: 'http', label: 'HTTP Request node, default settings', onError: 'continueRegularOutput' },
	{
		key: 'retry',
		label: 'HTTP Request node, Retry On Fail (5 tries, 5 s)',
		onError: 'stopWorkflow',
		settings: { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 },
	},
];

/** A contender's node for `workload` (`{ ours, http }` parameters), with its On Error and its settings. */
export function contenderNode(contender, workload) {
	const node = contender.key === 'ours' ? oursNode(workload.ours) : httpNode(workload.http);
	return { ...node, onError: contender.onError, ...contender.settings };
}

/** Creates of a sequence named `<prefix> <n>` from input items `{ n }`, as each node is configured; `extra` adds parameters. */
export const namedCreate = (sandboxUrl, prefix, extra = { ours: {}, http: {} }) => ({
	name: 'create sequence',
	ours: {
		resource: 'sequence',
		operation: 'create',
		name: `={{ '${prefix} ' + $json.n }}`,
		...extra.ours,
	},
	http: {
		method: 'POST',
		url: `${sandboxUrl}/v1/sequences`,
		sendBody: true,
		contentType: 'json',
		specifyBody: 'json',
		jsonBody: `={ "name": "${prefix} {{ $json.n }}" }`,
		...extra.http,
	},
});

/**
 * n8n's floor: the Set node (v3.4, in both n8n lines) evaluating `expression`, this node's own one
 * expression, for each item into the field `value`, and sending nothing.
 */
export const setNode = (expression) => ({
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	parameters: {
		mode: 'manual',
		assignments: {
			assignments: [{ id: 'value', name: 'value', value: expression, type: 'string' }],
		},
		options: {},
	},
});

/** The HTTP Request node (v4.2) with the Header Auth credential. */
export const httpNode = (parameters) => ({
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		options: {},
		...parameters,
	},
	credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'X-API-Key (bench)' } },
});

// ── the workloads of `npm run bench`, as each contender is configured ───────
const SCHEDULES = [
	{ dayOffset: 0, hour: 9, minute: 30, delayInMinutes: 0, sequenceScripts: ['phone-1'] },
	{ dayOffset: 1, hour: 14, minute: 0, delayInMinutes: 15, sequenceScripts: ['email-1', 'txt-1'] },
	{ dayOffset: 3, hour: 10, minute: 5, delayInMinutes: 0, sequenceScripts: ['blast-1'] },
];
const TIMEZONE = 'Europe/Berlin';

/** Each workload's one expression (this node's, and n8n's floor's), and what it gives for an input item. */
const EXPRESSIONS = {
	archive: { expression: '={{ $json.id }}', value: (item) => item.id },
	get: { expression: '={{ $json.useCase }}', value: (item) => item.useCase },
	create: { expression: "={{ 'Sequence ' + $json.n }}", value: (item) => `Sequence ${item.n}` },
};

/**
 * Archive contact, get use case and create sequence against `sandboxUrl`: each with this node's
 * parameters (`ours`), the HTTP Request node's (`http`), n8n's floor's expression and its value for an
 * input item (`n8nFloor`), the raw floor's request for an input item, and the identifier a success
 * carries (undefined: a new `seq-…`). Input items are `{ id: 'bulk-<n>', useCase, n }`.
 */
export const benchWorkloads = (sandboxUrl) => [
	{
		name: 'archive contact',
		ours: { resource: 'contact', operation: 'archive', contactId: EXPRESSIONS.archive.expression },
		n8nFloor: EXPRESSIONS.archive,
		http: { method: 'POST', url: `=${sandboxUrl}/v1/contacts/{{ $json.id }}/archive` },
		floor: (item) => ({
			method: 'POST',
			url: `${sandboxUrl}/v1/contacts/${encodeURIComponent(item.id)}/archive`,
		}),
		expectedId: (item) => item.id,
	},
	{
		name: 'get use case',
		ours: { resource: 'useCase', operation: 'get', useCaseId: EXPRESSIONS.get.expression },
		n8nFloor: EXPRESSIONS.get,
		http: { method: 'GET', url: `=${sandboxUrl}/v1/use_cases/{{ $json.useCase }}` },
		floor: (item) => ({
			method: 'GET',
			url: `${sandboxUrl}/v1/use_cases/${encodeURIComponent(item.useCase)}`,
		}),
		expectedId: (item) => item.useCase,
	},
	{
		name: 'create sequence',
		ours: {
			resource: 'sequence',
			operation: 'create',
			name: EXPRESSIONS.create.expression,
			additionalFields: { timezone: TIMEZONE },
			schedules: {
				schedule: SCHEDULES.map((row) => ({
					...row,
					sequenceScripts: row.sequenceScripts.join(', '),
				})),
			},
		},
		n8nFloor: EXPRESSIONS.create,
		http: {
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: `={ "name": "Sequence {{ $json.n }}", "timezone": "${TIMEZONE}", "schedules": ${JSON.stringify(SCHEDULES)} }`,
		},
		floor: (item) => ({
			method: 'POST',
			url: `${sandboxUrl}/v1/sequences`,
			body: JSON.stringify({
				name: `Sequence ${item.n}`,
				timezone: TIMEZONE,
				schedules: SCHEDULES,
			}),
		}),
		expectedId: undefined,
	},
];
