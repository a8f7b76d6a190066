// What the suites that run the fixtures share: one workflow per operation
// (FIXTURES) and what each should give (each item's answer, or
// how it failed: its facts and what its text names), copies of them set up
// for a test, and a run of one against the sandbox. How a run's failed items
// and hints are read and expected is in outcome.mts, the shipped send-again
// example in send-again.mts; both are exported from here too.
import type { Fault, RecordedRequest, SandboxProcess } from '../../harness/sandbox.mts';
import { NODE_TYPE, type ExecuteRun } from './n8n.mts';
import { SANDBOX_CREDENTIAL_ID, type N8n } from './stage.mts';
import { MANUAL_TRIGGER, outreachCredential, outreachNode, workflowOf } from './workflows.mts';

export { failuresWarning, hintOf, hintsOf, sentOnce, type Hint } from './outcome.mts';
export {
	SEND_AGAIN,
	SEND_AGAIN_FILE,
	SEND_AGAIN_NAMES,
	sendAgainCredential,
} from './send-again.mts';

export const MODES = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const;
export type Mode = (typeof MODES)[number];

/** A failed item: the facts it carries, and what its text names (an ID, a value it was given), if anything. */
export interface Failed {
	facts: Record<string, unknown>;
	names?: string;
}

export interface Expected {
	fixture: string;
	/** Per input item: the answer's id for a success, or how it failed (its words: test/unit). */
	items: Array<{ id: string } | { failed: Failed }>;
	/** "METHOD path" of every request the items should cause (none for items that fail validation). */
	requests: string[];
}

/** The contact, list or use case the sandbox does not know: a 404, sent once. */
const notFound: Failed = {
	facts: {
		statusCode: 404,
		networkError: null,
		timesSent: 1,
		retryAfterSeconds: null,
		outcome: 'notActed',
	},
	names: 'zz-404',
};
/** An item whose request could not be made: never sent. */
const neverSent = (names?: string): Failed => ({
	facts: { ...notFound.facts, statusCode: null, timesSent: 0 },
	...(names === undefined ? {} : { names }),
});

export const EXPECTED: Expected[] = [
	{
		fixture: 'contact-archive',
		items: [{ id: 'c-42' }, { failed: notFound }, { failed: neverSent() }, { id: 'a/b?c#d' }],
		requests: [
			'POST /v1/contacts/c-42/archive',
			'POST /v1/contacts/zz-404/archive',
			'POST /v1/contacts/a%2Fb%3Fc%23d/archive',
		],
	},
	{
		fixture: 'contact-list-archive',
		items: [{ id: 'list-1' }, { failed: notFound }, { failed: neverSent('..') }, { id: 'list/3' }],
		requests: [
			'POST /v1/contact_lists/list-1/archive',
			'POST /v1/contact_lists/zz-404/archive',
			'POST /v1/contact_lists/list%2F3/archive',
		],
	},
	{
		fixture: 'use-case-get',
		items: [{ id: 'uc-1' }, { failed: notFound }, { failed: neverSent() }, { id: 'uc-2' }],
		requests: ['GET /v1/use_cases/uc-1', 'GET /v1/use_cases/zz-404', 'GET /v1/use_cases/uc-2'],
	},
	{
		fixture: 'sequence-create-fields',
		items: [{ id: 'seq' }, { failed: neverSent('nine') }, { id: 'seq' }],
		requests: ['POST /v1/sequences', 'POST /v1/sequences'],
	},
	{
		fixture: 'sequence-create-json',
		items: [{ id: 'seq' }, { failed: neverSent() }, { id: 'seq' }],
		requests: ['POST /v1/sequences', 'POST /v1/sequences'],
	},
];

export const isError = (entry: Expected['items'][number]): entry is { failed: Failed } =>
	'failed' in entry;

/** A text of the node's: there, and naming what `names` says it names. */
export function expectNaming(text: unknown, { names }: Failed): void {
	expect(typeof text === 'string' && text !== '').toBe(true);
	if (names !== undefined) expect(text).toContain(`"${names}"`);
}

/** A failed item's JSON: its text, and the facts it carries. */
export function expectFailed(json: Record<string, unknown>, failed: Failed): void {
	expectNaming(json.error, failed);
	expect(json.message).toEqual(failed.facts);
}

/**
 * The fixtures, one per operation: Start › Input (these items) › Items (one
 * per input) › Outreach Sequences (these parameters) › After Success and
 * After Error, which read $('Items').item and $('Outreach Sequences').item.
 */
const FIXTURES: Record<
	string,
	{ parameters: Record<string, unknown>; inputs: Array<Record<string, unknown>> }
> = {
	'contact-archive': {
		parameters: { resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
		inputs: [{ id: 'c-42' }, { id: 'zz-404' }, { id: '' }, { id: 'a/b?c#d' }],
	},
	'contact-list-archive': {
		parameters: { resource: 'contactList', operation: 'archive', contactListId: '={{ $json.id }}' },
		inputs: [{ id: 'list-1' }, { id: 'zz-404' }, { id: '..' }, { id: 'list/3' }],
	},
	'use-case-get': {
		parameters: { resource: 'useCase', operation: 'get', useCaseId: '={{ $json.id }}' },
		inputs: [{ id: 'uc-1' }, { id: 'zz-404' }, { id: '   ' }, { id: 'uc-2' }],
	},
	'sequence-create-fields': {
		parameters: {
			resource: 'sequence',
			operation: 'create',
			specifyBody: 'fields',
			name: '={{ $json.name }}',
			additionalFields: { timezone: 'Europe/Berlin' },
			schedules: {
				schedule: [
					{
						dayOffset: 0,
						hour: '={{ $json.hour }}',
						minute: 30,
						delayInMinutes: 0,
						sequenceScripts: 'phone-1',
					},
					{
						dayOffset: 1,
						hour: 14,
						minute: 0,
						delayInMinutes: 15,
						sequenceScripts: 'email-1, txt-1',
					},
					{ dayOffset: 3, hour: 10, minute: 5, delayInMinutes: 0, sequenceScripts: '' },
				],
			},
		},
		inputs: [
			{ name: 'Spring follow-up', hour: 9 },
			{ name: 'Broken hour', hour: 'nine' },
			{ name: 'Autumn check-in', hour: 10 },
		],
	},
	'sequence-create-json': {
		parameters: {
			resource: 'sequence',
			operation: 'create',
			specifyBody: 'json',
			jsonBody: '={{ $json.body }}',
		},
		inputs: [
			{
				body: '{\n  "name": "From JSON",\n  "criteria": null,\n  "schedules": [\n    {\n      "dayOffset": 2,\n      "hour": 8,\n      "minute": 0,\n      "delayInMinutes": 0,\n      "sequenceScripts": [\n        "blast-1"\n      ]\n    }\n  ]\n}',
			},
			{ body: '{ "name": "Pasted with a typo", }' },
			{ body: '{"name":"Second from JSON","timezone":"UTC"}' },
		],
	},
};

/** Reads both items a downstream node sees: its input's and the node's. */
const after = (name: string) => ({
	name,
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	parameters: {
		assignments: {
			assignments: [
				{
					id: 'input',
					name: 'input',
					value: "={{ $('Items').item.json }}",
					type: 'object',
				},
				{
					id: 'result',
					name: 'result',
					value: "={{ $('Outreach Sequences').item.json }}",
					type: 'object',
				},
			],
		},
		options: {},
	},
});

export function fixtureJson(name: string) {
	const { parameters, inputs } = structuredClone(FIXTURES[name]);
	const workflow = workflowOf(`e2e-${name}`, [
		MANUAL_TRIGGER,
		{
			name: 'Input',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items: inputs }), options: {} },
		},
		{
			name: 'Items',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'items', options: {} },
		},
		outreachNode('Outreach Sequences', parameters, {
			credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
		}),
		after('After Success'),
	]);
	workflow.nodes.push({ ...after('After Error'), id: 'after-error', position: [880, 200] });
	workflow.connections['Outreach Sequences'] = {
		main: [
			[{ node: 'After Success', type: 'main', index: 0 }],
			[{ node: 'After Error', type: 'main', index: 0 }],
		],
	};
	return workflow;
}

export const inputItems = (name: string) => FIXTURES[name].inputs;

/**
 * A copy of fixture `name` as workflow `id`, its Outreach Sequences node (of
 * the type n8n gives an npm-installed package) with these settings and
 * parameters, and the Input node's items replaced when `inputs` is given.
 */
export function fixtureCopy(
	name: string,
	id: string,
	{
		inputs,
		parameters,
		...settings
	}: {
		inputs?: Array<Record<string, unknown>>;
		parameters?: Record<string, unknown>;
		[setting: string]: unknown;
	} = {},
) {
	const workflow = fixtureJson(name);
	workflow.id = id;
	workflow.name = `e2e ${id}`;
	for (const node of workflow.nodes) {
		if (node.name === 'Input' && inputs)
			node.parameters = {
				...(node.parameters as object),
				jsonOutput: JSON.stringify({ items: inputs }),
			};
		if (node.name !== 'Outreach Sequences') continue;
		// A custom extension folder would make the type CUSTOM.*.
		if (node.type !== NODE_TYPE)
			throw new Error(`${name}: the node's type is ${String(node.type)}, not ${NODE_TYPE}`);
		Object.assign(node, settings);
		if (parameters) node.parameters = { ...(node.parameters as object), ...parameters };
	}
	return workflow;
}

/** Runs an imported workflow against the sandbox with these faults set, from a fresh store; its output is kept as the log `label`. */
export async function executeWith(
	n8n: N8n,
	sandbox: SandboxProcess,
	label: string,
	id: string,
	faults: Fault[] = [],
): Promise<{ run: ExecuteRun; requests: RecordedRequest[] }> {
	await sandbox.reset();
	for (const fault of faults) await sandbox.addFault(fault);
	const { run } = await n8n.execute(id, { log: label });
	return { run, requests: await sandbox.requests() };
}

/** The answer id check: sequences get ids from the service, the rest echo the input's. */
export function expectSuccess(json: Record<string, unknown>, expected: { id: string }): void {
	if (expected.id === 'seq') expect(json.id).toMatch(/^seq-/);
	else expect(json.id).toBe(expected.id);
	expect(json).not.toHaveProperty('error');
}
