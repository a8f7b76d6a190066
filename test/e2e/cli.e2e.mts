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

import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess, type RecordedRequest } from '../harness/sandbox.mts';
import {
	N8N_CURRENT,
	N8N_MAINTAINED,
	NODE_TYPE,
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
		await importWorkflows(bin, env, workflows);
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
			expect(items[0].json).toEqual({
				error: `The outreach service redirected the request to archive contact "c-42" (HTTP 302 to ${location}). Redirects are not followed, so the API key only goes to the credential's Base URL: set the Base URL to the service's current address.`,
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
			error: 'The outreach service did not answer the request to archive contact "c-42" within 300 ms, the limit set in Request Options › Timeout.',
		},
		{
			fault: 'a connection dropped before the answer',
			setup: { drop: 'before-response' as const },
			error: 'The connection to the outreach service was reset before its answer to archive contact "c-42" was complete. The service may or may not have carried it out.',
		},
		{
			fault: 'a reset in the middle of the answer',
			setup: { drop: 'mid-body' as const, status: 200, body: { id: 'c-42', status: 'archived' } },
			error: 'The connection to the outreach service was reset before its answer to archive contact "c-42" was complete. The service may or may not have carried it out.',
		},
	])('$fault: the item says so in those words, the others are unaffected', async ({ setup, error }) => {
		await sandbox.reset();
		await sandbox.addFault({ pathPrefix: '/v1/contacts/c-42/', ...setup });
		const result = await n8nCli(bin, ['execute', `--id=${FAULTS_WORKFLOW}`, '--rawOutput'], env);
		recordLog(`cli-${version}-${'drop' in setup ? setup.drop : 'timeout'}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		const [items] = outputsOf(runDataOf(result.stdout), 'Outreach Sequences');
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(items[0].json).toEqual({ error });
		expect(items[3].json.id).toBe('a/b?c#d');
	});

	test.each([
		{ workflow: 'e2e-refused', error: () => `Could not connect to the outreach service at ${refusedUrl}: the connection was refused. Check the credential's Base URL and that the service is running.` },
		{ workflow: 'e2e-unknown-host', error: () => 'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.' },
	])('$workflow: every item says what is wrong with the Base URL', async ({ workflow, error }) => {
		const result = await n8nCli(bin, ['execute', `--id=${workflow}`, '--rawOutput'], env);
		recordLog(`cli-${version}-${workflow}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		const [items] = outputsOf(runDataOf(result.stdout), 'Outreach Sequences');
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		// Item 2 has an empty ID: it fails validation whatever the Base URL.
		expect(items.map((item) => item.json.error)).toEqual([error(), error(), expect.stringMatching(/^Contact ID is empty/), error()]);
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
