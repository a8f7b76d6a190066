// The packed package in real n8n, on both lines users run: installed by
// `npm install <tarball>` into <user folder>/.n8n/nodes, workflows imported and
// run with the n8n CLI (`n8n execute --id … --rawOutput`) against the sandbox.
// Every fixture runs under the three On Error modes; downstream Set nodes read
// $('Items').item and $('Outreach Sequences').item on both outputs.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEFAULT_MAX_WAIT_SECONDS } from '../../nodes/OutreachSequences/describe/defaults.ts';
import { RETRY_ON_FAIL_TEXT, earlierTryHint, failedItemsHint } from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import type { FailureGroup } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess, type Fault, type RecordedRequest } from '../harness/sandbox.mts';
import {
	N8N_CURRENT,
	N8N_MAINTAINED,
	NODE_TYPE,
	ROOT,
	freePort,
	importCredentials,
	importWorkflows,
	n8nCli,
	n8nEnv,
	outputsOf,
	packPackage,
	prepareN8n,
	runDataOf,
	userFolderWithPackage,
	type ExecuteRun,
	type NodeRun,
} from './harness/n8n.mts';
import { recordLog } from './harness/logs.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

const MODES = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const;
type Mode = (typeof MODES)[number];

interface Expected {
	fixture: string;
	/** Per input item: the answer's id for a success, or the exact error text. */
	items: Array<{ id: string } | { error: string | RegExp }>;
	/** "METHOD path" of every request the items should cause (none for items that fail validation). */
	requests: string[];
}

const notFound = (noun: string) => `${noun} "zz-404" was not found (HTTP 404): Resource not found`;

const EXPECTED: Expected[] = [
	{
		fixture: 'contact-archive',
		items: [
			{ id: 'c-42' },
			{ error: notFound('Contact') },
			{ error: 'Contact ID is empty. Enter an identifier, or map one from the input, for example {{ $json.id }}.' },
			{ id: 'a/b?c#d' },
		],
		requests: ['POST /v1/contacts/c-42/archive', 'POST /v1/contacts/zz-404/archive', 'POST /v1/contacts/a%2Fb%3Fc%23d/archive'],
	},
	{
		fixture: 'contact-list-archive',
		items: [{ id: 'list-1' }, { error: notFound('Contact list') }, { error: /^Contact List ID "\.\." can't be sent/ }, { id: 'list/3' }],
		requests: ['POST /v1/contact_lists/list-1/archive', 'POST /v1/contact_lists/zz-404/archive', 'POST /v1/contact_lists/list%2F3/archive'],
	},
	{
		fixture: 'use-case-get',
		items: [{ id: 'uc-1' }, { error: notFound('Use case') }, { error: /^Use Case ID is empty\./ }, { id: 'uc-2' }],
		requests: ['GET /v1/use_cases/uc-1', 'GET /v1/use_cases/zz-404', 'GET /v1/use_cases/uc-2'],
	},
	{
		fixture: 'sequence-create-fields',
		items: [{ id: 'seq' }, { error: 'Schedule 1: Hour must be a whole number, but it is "nine".' }, { id: 'seq' }],
		requests: ['POST /v1/sequences', 'POST /v1/sequences'],
	},
	{
		fixture: 'sequence-create-json',
		items: [{ id: 'seq' }, { error: /^JSON Body is not valid JSON: / }, { id: 'seq' }],
		requests: ['POST /v1/sequences', 'POST /v1/sequences'],
	},
];

const isError = (entry: Expected['items'][number]): entry is { error: string | RegExp } => 'error' in entry;

function expectText(actual: unknown, expected: string | RegExp): void {
	if (typeof expected === 'string') expect(actual).toBe(expected);
	else expect(actual).toMatch(expected);
}

function fixtureJson(name: string): { id: string; name: string; nodes: Array<Record<string, unknown>> } {
	return JSON.parse(readFileSync(path.join(here, 'workflows', `${name}.cli.workflow.json`), 'utf8'));
}

function inputItems(name: string): Array<Record<string, unknown>> {
	const input = fixtureJson(name).nodes.find((node) => node.name === 'Input') as { parameters: { jsonOutput: string } };
	return (JSON.parse(input.parameters.jsonOutput) as { items: Array<Record<string, unknown>> }).items;
}

const workflowId = (fixture: string, mode: Mode) => `e2e-${fixture}-${mode}`;
const FAULTS_WORKFLOW = 'e2e-network-faults';
const UNREACHABLE = {
	'e2e-refused': { id: 'e2eRefused', name: 'Outreach refused' },
	'e2e-unknown-host': { id: 'e2eUnknownHost', name: 'Outreach unknown host' },
};

/** The facts of an item sent once that failed: its status or network fault, and whether the service may have acted. */
function sentOnce(facts: { statusCode?: number; networkError?: string; outcome: 'notActed' | 'mayHaveActed' }): Record<string, unknown> {
	return { statusCode: facts.statusCode ?? null, networkError: facts.networkError ?? null, timesSent: 1, retryAfterSeconds: null, outcome: facts.outcome };
}

/** An execution hint as n8n keeps it in the run data, beside the node's items. */
interface Hint {
	type: string;
	location?: string;
	message: string;
}

/**
 * The warning a run with these failures should show, from the hint texts
 * (unit-tested on their own) and counts that come from the test's inputs and
 * faults: what the real run has to get right is which group each item is in.
 */
function failuresWarning(items: number, failed: Partial<Record<FailureGroup, number>>, readOnly = false): Hint {
	const ends: Array<FailureGroup | undefined> = Object.entries(failed).flatMap(([group, count]) => Array.from({ length: count ?? 0 }, () => group as FailureGroup));
	while (ends.length < items) ends.push(undefined);
	const hint = failedItemsHint(new RunReport().summarize(ends), { retryOnFail: false, readOnly });
	if (!hint) throw new Error('no failures, no warning');
	return { type: 'warning', location: 'outputPane', message: hint.message };
}

/** The hints of a node's first run; fails when the node did not run. */
function hintsOf(run: ExecuteRun, node: string): Hint[] {
	const task = run.runData[node]?.[0] as (NodeRun & { hints?: Hint[] }) | undefined;
	if (!task) throw new Error(`${node} did not run; the nodes that ran: ${Object.keys(run.runData).join(', ')}`);
	return task.hints ?? [];
}

// Execution hints: contact-archive under Continue, with contacts the sandbox
// knows, so that every failure comes from a fault the test sets.
const HINT_CONTACTS = ['c-42', 'c-43', '42'];
const HINTS_WORKFLOW = 'e2e-hints-archive';
const RETRY_ON_FAIL_WORKFLOW = 'e2e-hints-retry-on-fail';
const READ_ONLY_RETRY_ON_FAIL_WORKFLOW = 'e2e-hints-use-case-retry-on-fail';
/** Settings › Max Tries of the Retry On Fail workflow (n8n's default is 3; 2 keeps the run short). */
const RETRY_ON_FAIL_TRIES = 2;

function continueWorkflow(
	fixture: string,
	id: string,
	change: { retryOnFail?: boolean; maxTries?: number; inputs?: Array<Record<string, unknown>> } = {},
): { id: string } {
	const workflow = fixtureJson(fixture);
	workflow.id = id;
	workflow.name = `e2e ${id}`;
	for (const node of workflow.nodes) {
		if (node.name === 'Input' && change.inputs) {
			node.parameters = { ...(node.parameters as object), jsonOutput: JSON.stringify({ items: change.inputs }) };
		}
		if (node.name !== 'Outreach Sequences') continue;
		node.onError = 'continueRegularOutput';
		if (change.retryOnFail) node.retryOnFail = true;
		if (change.maxTries) node.maxTries = change.maxTries;
	}
	return workflow;
}

// The example that sends again what the service never received, as shipped.
const SEND_AGAIN_FILE = path.join(ROOT, 'examples', 'send-again.workflow.json');
const SEND_AGAIN = JSON.parse(readFileSync(SEND_AGAIN_FILE, 'utf8')) as {
	id: string;
	nodes: Array<{ name: string; parameters: Record<string, unknown>; credentials?: Record<string, { id: string; name: string }> }>;
};
const sendAgainNode = (name: string) => {
	const node = SEND_AGAIN.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`${SEND_AGAIN_FILE} has no node "${name}"`);
	return node;
};
/** The names the example creates, in the order its items come. */
const SEND_AGAIN_NAMES = (JSON.parse(String(sendAgainNode('Sequences to create').parameters.jsonOutput)) as { sequences: Array<{ name: string }> }).sequences.map(
	(sequence) => sequence.name,
);
/** The credential the example's nodes refer to; the suite stores one with that id, as a user would create it. */
function sendAgainCredential(): { id: string; name: string } {
	const credential = sendAgainNode('Create Sequence').credentials?.outreachSequencesApi;
	if (!credential) throw new Error(`${SEND_AGAIN_FILE}: Create Sequence has no Outreach Sequences credential`);
	return credential;
}

/** The answer id check: sequences get ids from the service, the rest echo the input's. */
function expectSuccess(json: Record<string, unknown>, expected: { id: string }): void {
	if (expected.id === 'seq') expect(json.id).toMatch(/^seq-/);
	else expect(json.id).toBe(expected.id);
	expect(json).not.toHaveProperty('error');
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s, package installed from its tarball', (version) => {
	let bin: string;
	let env: NodeJS.ProcessEnv;
	let sandbox: SandboxProcess;
	let refusedUrl = '';

	beforeAll(async () => {
		bin = prepareN8n(version);
		const folder = await userFolderWithPackage(packPackage());
		// Each n8n process binds a task-broker port; suites run side by side.
		env = n8nEnv(folder, { N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
		sandbox = await SandboxProcess.start(TEST_API_KEYS.cli);
		refusedUrl = `http://127.0.0.1:${await freePort()}`;

		await importCredentials(bin, env, [
			{ id: 'e2eSandbox', name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
			// Base URLs where nothing answers: a closed port, and a host DNS does not know.
			{ id: 'e2eRefused', name: 'Outreach refused', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: refusedUrl } },
			{ id: 'e2eUnknownHost', name: 'Outreach unknown host', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' } },
			{ ...sendAgainCredential(), type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
		]);
		const workflows: Array<{ id: string }> = [];
		for (const { fixture } of EXPECTED) {
			for (const mode of MODES) {
				const workflow = fixtureJson(fixture);
				workflow.id = workflowId(fixture, mode);
				workflow.name = `${workflow.name} (${mode})`;
				for (const node of workflow.nodes) {
					if (node.name !== 'Outreach Sequences') continue;
					// The type n8n gives an npm-installed package (a custom extension folder would make it CUSTOM.*).
					if (node.type !== NODE_TYPE) throw new Error(`${fixture}: the node's type is ${String(node.type)}, not ${NODE_TYPE}`);
					node.onError = mode;
				}
				workflows.push(workflow as { id: string });
			}
		}
		// Network faults: contact-archive with Request Options › Timeout at 300 ms.
		const faults = fixtureJson('contact-archive') as ReturnType<typeof fixtureJson> & { nodes: Array<Record<string, unknown>> };
		faults.id = FAULTS_WORKFLOW;
		faults.name = 'e2e network faults';
		for (const node of faults.nodes) {
			if (node.name !== 'Outreach Sequences') continue;
			node.onError = 'continueRegularOutput';
			node.parameters = { ...(node.parameters as object), requestOptions: { timeout: 300 } };
		}
		workflows.push(faults as { id: string });
		for (const [id, credential] of Object.entries(UNREACHABLE)) {
			const copy = JSON.parse(JSON.stringify(faults)) as typeof faults;
			copy.id = id;
			copy.name = `e2e ${id}`;
			for (const node of copy.nodes) if (node.name === 'Outreach Sequences') node.credentials = { outreachSequencesApi: credential };
			workflows.push(copy as { id: string });
		}
		const hintContacts = HINT_CONTACTS.map((id) => ({ id }));
		workflows.push(
			continueWorkflow('contact-archive', HINTS_WORKFLOW, { inputs: hintContacts }),
			continueWorkflow('contact-archive', RETRY_ON_FAIL_WORKFLOW, { inputs: hintContacts, retryOnFail: true, maxTries: RETRY_ON_FAIL_TRIES }),
			continueWorkflow('use-case-get', READ_ONLY_RETRY_ON_FAIL_WORKFLOW, { retryOnFail: true }),
		);
		await importWorkflows(bin, env, [...workflows, SEND_AGAIN_FILE]);
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	async function execute(fixture: string, mode: Mode): Promise<{ run: ExecuteRun; requests: RecordedRequest[] }> {
		await sandbox.reset();
		const result = await n8nCli(bin, ['execute', `--id=${workflowId(fixture, mode)}`, '--rawOutput'], env);
		recordLog(`cli-${version}-${fixture}-${mode}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		const run = runDataOf(result.stdout);
		return { run, requests: await sandbox.requests() };
	}

	test('a redirect from the service is not followed: the key never reaches the other host', async () => {
		const received: string[] = [];
		const elsewhere = http.createServer((req, res) => {
			received.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
			res.setHeader('content-type', 'application/json');
			res.end('{"id":"c-42","stolen":true}');
		});
		await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
		const location = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}/steal`;
		try {
			await sandbox.reset();
			await sandbox.addFault({ pathPrefix: '/v1/contacts/c-42/', status: 302, headers: { Location: location } });
			const result = await n8nCli(bin, ['execute', `--id=${workflowId('contact-archive', 'continueRegularOutput')}`, '--rawOutput'], env);
			recordLog(`cli-${version}-redirect`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
			const [items] = outputsOf(runDataOf(result.stdout), 'Outreach Sequences');
			// A redirect is the service's answer, and it refused the request: it did not act on it.
			expect(items[0].json).toEqual({
				error: `The outreach service redirected the request to archive contact "c-42" (HTTP 302 to ${location}). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address.`,
				...sentOnce({ statusCode: 302, outcome: 'notActed' }),
			});
			expect(received).toEqual([]);
		} finally {
			elsewhere.close();
		}
	});

	test.each([
		{
			fault: 'an answer slower than Request Options › Timeout',
			setup: { delayMs: 1500 },
			error: 'The outreach service did not answer the request to archive contact "c-42" within 300 ms, the limit set in Request Options › Timeout (Ms). It may have carried the request out: check before sending it again.',
			networkError: 'timeout',
		},
		{
			fault: 'a connection dropped before the answer',
			setup: { drop: 'before-response' as const },
			error: 'The connection to the outreach service was reset before its answer to archive contact "c-42" was complete. It may have carried the request out: check before sending it again.',
			networkError: 'reset',
		},
		{
			fault: 'a reset in the middle of the answer',
			setup: { drop: 'mid-body' as const, status: 200, body: { id: 'c-42', status: 'archived' } },
			error: 'The connection to the outreach service was reset before its answer to archive contact "c-42" was complete. It may have carried the request out: check before sending it again.',
			networkError: 'reset',
		},
	])('$fault: the item says so in those words, the others are unaffected', async ({ setup, error, networkError }) => {
		await sandbox.reset();
		await sandbox.addFault({ pathPrefix: '/v1/contacts/c-42/', ...setup });
		const result = await n8nCli(bin, ['execute', `--id=${FAULTS_WORKFLOW}`, '--rawOutput'], env);
		recordLog(`cli-${version}-${'drop' in setup ? setup.drop : 'timeout'}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		const [items] = outputsOf(runDataOf(result.stdout), 'Outreach Sequences');
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		// The request went out and no answer came back: the service may have archived the contact.
		expect(items[0].json).toEqual({ error, ...sentOnce({ networkError, outcome: 'mayHaveActed' }) });
		expect(items[3].json.id).toBe('a/b?c#d');
	});

	test.each([
		{
			workflow: 'e2e-refused',
			networkError: 'refused',
			error: () => `Could not connect to the outreach service at ${refusedUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
		},
		{
			workflow: 'e2e-unknown-host',
			networkError: 'dns',
			error: () => 'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
		},
	])('$workflow: every item says what is wrong with the Base URL', async ({ workflow, error, networkError }) => {
		const result = await n8nCli(bin, ['execute', `--id=${workflow}`, '--rawOutput'], env);
		recordLog(`cli-${version}-${workflow}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		const [items] = outputsOf(runDataOf(result.stdout), 'Outreach Sequences');
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		// Item 2 has an empty ID: it fails validation whatever the Base URL.
		expect(items.map((item) => item.json.error)).toEqual([error(), error(), expect.stringMatching(/^Contact ID is empty/), error()]);
		// Nothing reached the service: every item says it did not act; the empty ID was never sent at all.
		const unreached = { statusCode: null, networkError, timesSent: 1, retryAfterSeconds: null, outcome: 'notActed' };
		const neverSent = { statusCode: null, networkError: null, timesSent: 0, retryAfterSeconds: null, outcome: 'notActed' };
		expect(items.map(({ json: { error: _, ...facts } }) => facts)).toEqual([unreached, unreached, neverSent, unreached]);
	});

	/** Runs an imported workflow against the sandbox with these faults set, from a fresh store. */
	async function executeWith(label: string, id: string, faults: Fault[] = []): Promise<{ run: ExecuteRun; requests: RecordedRequest[] }> {
		await sandbox.reset();
		for (const fault of faults) await sandbox.addFault(fault);
		const result = await n8nCli(bin, ['execute', `--id=${id}`, '--rawOutput'], env);
		recordLog(`cli-${version}-${label}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		return { run: runDataOf(result.stdout), requests: await sandbox.requests() };
	}

	const archivePath = (id: string) => `/v1/contacts/${encodeURIComponent(id)}/archive`;
	/** The statuses the sandbox answered each hint contact's archive with, in order. */
	const statusesByContact = (requests: RecordedRequest[]) =>
		Object.fromEntries(HINT_CONTACTS.map((id) => [id, requests.filter((request) => request.url === archivePath(id)).map((request) => request.status)]));

	describe('execution hints in the run data', () => {
		test('a clean run has no hints', async () => {
			const { run, requests } = await executeWith('hints-clean', HINTS_WORKFLOW);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.json.id)).toEqual(HINT_CONTACTS);
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([]);
			expect(statusesByContact(requests)).toEqual(Object.fromEntries(HINT_CONTACTS.map((id) => [id, [200]])));
		});

		test('the service pushes back once with Retry-After: one info hint that says so and that every item succeeded; no warning', async () => {
			const limited = HINT_CONTACTS[1];
			const { run, requests } = await executeWith('hints-pushed-back', HINTS_WORKFLOW, [
				{ pathPrefix: archivePath(limited), status: 429, headers: { 'Retry-After': '1' }, body: { message: 'Too many requests' }, times: 1 },
			]);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.json.id)).toEqual(HINT_CONTACTS);
			// The limited contact was sent again after its 429, once; the others once.
			expect(statusesByContact(requests)).toEqual(Object.fromEntries(HINT_CONTACTS.map((id) => [id, id === limited ? [429, 200] : [200]])));

			const hints = hintsOf(run, 'Outreach Sequences');
			expect(hints).toHaveLength(1);
			expect(hints[0]).toEqual({ type: 'info', location: 'outputPane', message: expect.any(String) });
			expect(hints[0].message).toMatch(/^The outreach service pushed back 1 time \(HTTP 429 or 503/);
			expect(hints[0].message).toContain('1 item was sent again; it succeeded.');
			expect(hints[0].message).toMatch(new RegExp(`All ${HINT_CONTACTS.length} items succeeded\\.$`));
		});

		test('Continue with a 404 and a 500: a warning names the failed items by cause, and each failed item carries its facts', async () => {
			const [ok, rejected, mayHaveActed] = HINT_CONTACTS;
			const { run, requests } = await executeWith('hints-failures', HINTS_WORKFLOW, [
				{ pathPrefix: archivePath(rejected), status: 404, body: { message: 'Resource not found' } },
				{ pathPrefix: archivePath(mayHaveActed), status: 500, body: { message: 'Internal error' } },
			]);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.pairedItem)).toEqual(HINT_CONTACTS.map((_, item) => ({ item })));
			expect(items[0].json.id).toBe(ok);
			expect(items[1].json).toEqual({ error: expect.stringContaining('HTTP 404'), ...sentOnce({ statusCode: 404, outcome: 'notActed' }) });
			expect(items[2].json).toEqual({ error: expect.stringContaining('HTTP 500'), ...sentOnce({ statusCode: 500, outcome: 'mayHaveActed' }) });
			// An archive is not sent again after a 500: the service may have carried it out.
			expect(statusesByContact(requests)).toEqual({ [ok]: [200], [rejected]: [404], [mayHaveActed]: [500] });

			const hints = hintsOf(run, 'Outreach Sequences');
			expect(hints).toEqual([failuresWarning(HINT_CONTACTS.length, { rejected: 1, mayHaveActed: 1 })]);
			expect(hints[0].message).toMatch(new RegExp(`^2 of ${HINT_CONTACTS.length} items failed\\. `));
			expect(hints[0].message).toMatch(/ Before sending that item again, check in the outreach service whether it was carried out/);
		});

		test('Retry On Fail on an archive: the node says what n8n does when it runs the node again', async () => {
			const { run } = await executeWith('hints-retry-on-fail', RETRY_ON_FAIL_WORKFLOW);
			expect(run.error).toBeUndefined();
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items.map((item) => item.json.id)).toEqual(HINT_CONTACTS);
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([{ type: 'warning', location: 'outputPane', message: RETRY_ON_FAIL_TEXT }]);
			expect(RETRY_ON_FAIL_TEXT).toMatch(/^Retry On Fail is on for this node\. /);
		});

		test('Retry On Fail with Continue, and the first item fails: n8n runs the node again, and only the failed item goes out again', async () => {
			const [first, ...others] = HINT_CONTACTS;
			const { run, requests } = await executeWith('hints-retry-on-fail-first-fails', RETRY_ON_FAIL_WORKFLOW, [
				{ pathPrefix: archivePath(first), status: 404, body: { message: 'Resource not found' } },
			]);
			expect(run.error).toBeUndefined();
			// The workflow sets Max Tries to RETRY_ON_FAIL_TRIES: each try sends the failed item again; the others
			// were archived in the first try and come from the record (run/record.ts) in the next.
			expect(statusesByContact(requests)).toEqual({
				[first]: Array(RETRY_ON_FAIL_TRIES).fill(404),
				...Object.fromEntries(others.map((id) => [id, [200]])),
			});
			const [items] = outputsOf(run, 'Outreach Sequences');
			expect(items[0].json).toEqual({ error: expect.stringContaining('HTTP 404'), ...sentOnce({ statusCode: 404, outcome: 'notActed' }) });
			expect(items.slice(1).map((item) => item.json.id)).toEqual(others);
			const lastTry = new RunReport().summarize([]);
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([
				{ type: 'warning', location: 'outputPane', message: RETRY_ON_FAIL_TEXT },
				failuresWarning(HINT_CONTACTS.length, { rejected: 1 }),
				earlierTryHint({ ...lastTry, earlierTry: { answered: others.length, sentAgain: 1 } }),
			]);
		});

		test('Retry On Fail on Get Use Case, which changes nothing: no Retry On Fail warning, the failures still are', async () => {
			const expected = EXPECTED.find((entry) => entry.fixture === 'use-case-get');
			if (!expected) throw new Error('no use-case-get expectations');
			const failed = expected.items.filter(isError).length;
			const { run } = await executeWith('hints-read-only-retry-on-fail', READ_ONLY_RETRY_ON_FAIL_WORKFLOW);
			expect(run.error).toBeUndefined();
			// zz-404 is rejected, the blank ID never sent; no Retry On Fail warning.
			expect(failed).toBe(2);
			expect(hintsOf(run, 'Outreach Sequences')).toEqual([failuresWarning(expected.items.length, { rejected: 1, notSent: 1 }, true)]);
		});
	});

	test('the send-again example: only what the service did not act on is sent again, once', async () => {
		expect(SEND_AGAIN_NAMES).toHaveLength(3);
		const [spring, summer, autumn] = SEND_AGAIN_NAMES;
		// Summer: a 429 asking for a longer wait than Max Wait allows, so the node gives up at once (the
		// service did not act). Autumn: a 500 (it may have acted). Spring: no fault.
		const retryAfter = DEFAULT_MAX_WAIT_SECONDS * 2;
		const { run, requests } = await executeWith('send-again', SEND_AGAIN.id, [
			{ pathPrefix: '/v1/sequences', method: 'POST', bodyContains: summer, status: 429, headers: { 'Retry-After': String(retryAfter) }, body: { message: 'Too many requests' }, times: 1 },
			{ pathPrefix: '/v1/sequences', method: 'POST', bodyContains: autumn, status: 500, body: { message: 'Internal error' } },
		]);
		expect(run.error).toBeUndefined();

		// What the service received: each name's creates, with the status it answered.
		const creates = requests.filter((request) => request.method === 'POST' && request.url === '/v1/sequences');
		const sent = (name: string) => creates.filter((request) => (JSON.parse(request.body) as { name?: unknown }).name === name).map((request) => request.status);
		expect(creates).toHaveLength(4);
		expect(sent(spring)).toEqual([expect.any(Number)]);
		expect(sent(spring)[0]).toBeLessThan(300);
		expect(sent(summer)).toHaveLength(2);
		expect(sent(summer)[0]).toBe(429);
		expect(sent(summer)[1]).toBeLessThan(300);
		expect(sent(autumn)).toEqual([500]);
		const summary = await sandbox.summary();
		expect(summary.sequencesCreated).toBe(2);
		expect(summary.duplicateNames).toBe(0);

		// Create Sequence: Spring on the Success output, Summer and Autumn on the error output, each linked to its input.
		const [success, failure] = outputsOf(run, 'Create Sequence');
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(success[0].json).toMatchObject({ id: expect.stringMatching(/^seq-/), name: spring });
		expect(failure.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		// n8n merges the input's fields into an item on the error output.
		expect(failure.map((item) => item.json.name)).toEqual([summer, autumn]);
		expect(failure[0].json.error).toEqual(expect.stringContaining('HTTP 429'));
		expect(failure[0].json.message).toEqual({ statusCode: 429, networkError: null, timesSent: 1, retryAfterSeconds: retryAfter, outcome: 'notActed' });
		expect(failure[1].json.error).toEqual(expect.stringContaining('HTTP 500'));
		expect(failure[1].json.message).toEqual({ statusCode: 500, networkError: null, timesSent: 1, retryAfterSeconds: null, outcome: 'mayHaveActed' });
		const createHints = hintsOf(run, 'Create Sequence');
		expect(createHints.filter((hint) => hint.type === 'warning')).toEqual([failuresWarning(SEND_AGAIN_NAMES.length, { rejected: 1, mayHaveActed: 1 })]);
		// Summer's 429 was a push-back, though the node did not wait for it.
		expect(createHints.filter((hint) => hint.type !== 'warning')).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message: expect.stringMatching(
					/^The outreach service pushed back 1 time \(.*\)\. 1 item was not sent again \(Request Options › Rate Limit Handling\): 1 because the service asked for a longer wait than Max Wait \(Seconds\) allows\. 2 of 3 items failed\.$/,
				),
			},
		]);

		// Only Summer passes the filter and is created again, after the wait.
		const [passed] = outputsOf(run, 'The service did not act');
		expect(passed.map((item) => item.json.name)).toEqual([summer]);
		expect(run.runData['Create Sequence again']).toHaveLength(1);
		const [again] = outputsOf(run, 'Create Sequence again');
		expect(again).toHaveLength(1);
		expect(again[0].pairedItem).toEqual({ item: 0 });
		expect(again[0].json).toMatchObject({ id: expect.stringMatching(/^seq-/), name: summer });
		expect(again[0].json).not.toHaveProperty('error');
		expect(await sandbox.record('sequences', String(again[0].json.id))).toMatchObject({ name: summer });
		expect(hintsOf(run, 'Create Sequence again')).toEqual([]);
	});

	describe.each(EXPECTED)('$fixture', (expected) => {
		const inputs = inputItems(expected.fixture);
		const firstFailure = expected.items.findIndex(isError);

		test('fixture inputs line up with the expectations', () => {
			expect(inputs).toHaveLength(expected.items.length);
		});

		test('Continue (using error output): successes and failures on their own outputs, each linked to its input', async () => {
			const { run, requests } = await execute(expected.fixture, 'continueErrorOutput');
			expect(run.error).toBeUndefined();
			const [success, failure] = outputsOf(run, 'Outreach Sequences');
			const okIndexes = expected.items.flatMap((entry, index) => (isError(entry) ? [] : [index]));
			const failIndexes = expected.items.flatMap((entry, index) => (isError(entry) ? [index] : []));
			expect(success.map((item) => item.pairedItem)).toEqual(okIndexes.map((item) => ({ item })));
			expect(failure.map((item) => item.pairedItem)).toEqual(failIndexes.map((item) => ({ item })));
			success.forEach((item, position) => expectSuccess(item.json, expected.items[okIndexes[position]] as { id: string }));
			failure.forEach((item, position) => {
				const entry = expected.items[failIndexes[position]] as { error: string | RegExp };
				expectText(item.json.error, entry.error);
			});

			const [afterSuccess] = outputsOf(run, 'After Success');
			expect(afterSuccess.map((item) => item.json.input)).toEqual(okIndexes.map((index) => inputs[index]));
			expect(afterSuccess.map((item) => item.json.result)).toEqual(success.map((item) => item.json));
			const [afterError] = outputsOf(run, 'After Error');
			expect(afterError.map((item) => item.json.input)).toEqual(failIndexes.map((index) => inputs[index]));
			expect(afterError.map((item) => item.json.result)).toEqual(failure.map((item) => item.json));

			expect(requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual([...expected.requests].sort());
			for (const request of requests) expect(request.headers['x-api-key']).toBe(sandbox.apiKey);
		});

		test('Continue: one item per input, in order, errors as items, each linked to its input', async () => {
			const { run, requests } = await execute(expected.fixture, 'continueRegularOutput');
			expect(run.error).toBeUndefined();
			const outputs = outputsOf(run, 'Outreach Sequences');
			expect(outputs).toHaveLength(1);
			const [items] = outputs;
			expect(items.map((item) => item.pairedItem)).toEqual(inputs.map((_, item) => ({ item })));
			items.forEach((item, index) => {
				const entry = expected.items[index];
				if (isError(entry)) expectText(item.json.error, entry.error);
				else expectSuccess(item.json, entry);
			});
			const [afterSuccess] = outputsOf(run, 'After Success');
			expect(afterSuccess.map((item) => item.json.input)).toEqual(inputs);
			expect(afterSuccess.map((item) => item.json.result)).toEqual(items.map((item) => item.json));
			expect(outputsOf(run, 'After Error')).toEqual([]);
			expect(requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual([...expected.requests].sort());
		});

		test('Stop Workflow: the run fails with the first failing item’s error, and nothing runs after the node', async () => {
			const { run, requests } = await execute(expected.fixture, 'stopWorkflow');
			const failure = expected.items[firstFailure] as { error: string | RegExp };
			expectText(run.error?.message, failure.error);
			expect(run.runData['Outreach Sequences'][0].executionStatus).toBe('error');
			expect(run.runData['After Success']).toBeUndefined();
			expect(run.runData['After Error']).toBeUndefined();
			const sent = requests.map((request) => `${request.method} ${request.url}`);
			for (const request of sent) expect(expected.requests).toContain(request);
		});
	});
});
