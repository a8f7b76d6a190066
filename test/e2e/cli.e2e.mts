// The packed package in real n8n, on both lines users run: installed by
// `npm install <tarball>` into <user folder>/.n8n/nodes, workflows imported and
// run with Execute workflow (the editor's REST call) against the sandbox.
// Every fixture runs under the three On Error modes; downstream Set nodes read
// $('Items').item and $('Outreach Sequences').item on both outputs. A redirect
// and network faults (a timeout, resets, a refused port, an unknown host) each
// fail an item with the facts of what happened (their words: test/unit). The
// run's hints: cli-hints.e2e.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { TEST_API_KEYS } from '../harness/keys.mts';
import {
	EXPECTED,
	executeWith,
	expectFailed,
	expectNaming,
	expectSuccess,
	inputItems,
	isError,
	sentOnce,
	type Mode,
} from './harness/cli.mts';
import {
	FAULTS_WORKFLOW,
	NETWORK_FAULTS,
	cliWorkflows,
	unreachableCredentials,
	workflowId,
} from './harness/cli-runs.mts';
import { UNKNOWN_HOST_URL } from './harness/credentials.mts';
import { N8N_CURRENT, N8N_MAINTAINED, freePort, outputsOf } from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s, package installed from its tarball',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.cli);
		let refusedUrl = '';
		beforeAll(async () => {
			refusedUrl = `http://127.0.0.1:${await freePort()}`;
		});
		const n8n = useN8n(() => ({
			version,
			name: `cli-${version}`,
			run: 'server',
			sandbox: sandbox(),
			credentials: unreachableCredentials(sandbox().apiKey, refusedUrl),
			workflows: cliWorkflows(),
		}));
		// Each test starts with n8n's memory empty: these tests run the same items again on purpose.
		beforeEach(async () => await n8n.forgetMemory());

		const execute = (fixture: string, mode: Mode) =>
			executeWith(n8n, sandbox(), `${fixture}-${mode}`, workflowId(fixture, mode));

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
				const { run } = await executeWith(
					n8n,
					sandbox(),
					'redirect',
					workflowId('contact-archive', 'continueRegularOutput'),
					[{ pathPrefix: '/v1/contacts/c-42/', status: 302, headers: { Location: location } }],
				);
				const [items] = outputsOf(run, 'Outreach Sequences');
				// A redirect after an archive (a POST) may come after the service acted on it (issue 43).
				// Where it pointed is the user's to see, not the node's to follow.
				expect(items[0].json).toEqual({
					error: expect.stringContaining(location),
					...sentOnce({ statusCode: 302, outcome: 'mayHaveActed' }),
				});
				expect(received).toEqual([]);
			} finally {
				elsewhere.close();
			}
		});

		test.each(NETWORK_FAULTS)(
			'$fault: the item fails with its facts and names the contact, the others are unaffected',
			async ({ setup, networkError }) => {
				const label = ('drop' in setup && setup.drop) || 'timeout';
				const { run } = await executeWith(n8n, sandbox(), label, FAULTS_WORKFLOW, [
					{ pathPrefix: '/v1/contacts/c-42/', ...setup },
				]);
				const [items] = outputsOf(run, 'Outreach Sequences');
				expect(items.map((item) => item.pairedItem)).toEqual(
					[0, 1, 2, 3].map((item) => ({ item })),
				);
				// The request went out and no answer came back: the service may have archived the contact.
				expect(items[0].json).toEqual({
					error: expect.stringContaining('"c-42"'),
					...sentOnce({ networkError, outcome: 'mayHaveActed' }),
				});
				expect(items[3].json.id).toBe('a/b?c#d');
			},
		);

		test.each([
			{ workflow: 'e2e-refused', networkError: 'refused', baseUrl: () => refusedUrl },
			{
				workflow: 'e2e-unknown-host',
				networkError: 'dns',
				baseUrl: () => new URL(UNKNOWN_HOST_URL).host,
			},
		])(
			'$workflow: every item sent fails, and names the Base URL it could not reach',
			async ({ workflow, baseUrl, networkError }) => {
				const { run } = await executeWith(n8n, sandbox(), workflow, workflow);
				const [items] = outputsOf(run, 'Outreach Sequences');
				expect(items.map((item) => item.pairedItem)).toEqual(
					[0, 1, 2, 3].map((item) => ({ item })),
				);
				// Item 2 has an empty ID: it fails validation whatever the Base URL.
				const named = expect.stringContaining(baseUrl());
				expect(items.map((item) => item.json.error)).toEqual([
					named,
					named,
					expect.any(String),
					named,
				]);
				expect(items[2].json.error).not.toContain(baseUrl());
				// Nothing reached the service: every item says it did not act; the empty ID was never sent at all.
				const unreached = {
					statusCode: null,
					networkError,
					timesSent: 1,
					retryAfterSeconds: null,
					outcome: 'notActed',
				};
				const neverSent = {
					statusCode: null,
					networkError: null,
					timesSent: 0,
					retryAfterSeconds: null,
					outcome: 'notActed',
				};
				expect(items.map((item) => item.json.message)).toEqual([
					unreached,
					unreached,
					neverSent,
					unreached,
				]);
			},
		);

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
				const failIndexes = expected.items.flatMap((entry, index) =>
					isError(entry) ? [index] : [],
				);
				expect(success.map((item) => item.pairedItem)).toEqual(okIndexes.map((item) => ({ item })));
				expect(failure.map((item) => item.pairedItem)).toEqual(
					failIndexes.map((item) => ({ item })),
				);
				success.forEach((item, position) =>
					expectSuccess(item.json, expected.items[okIndexes[position]] as { id: string }),
				);
				failure.forEach((item, position) => {
					const entry = expected.items[failIndexes[position]];
					if (isError(entry)) expectFailed(item.json, entry.failed);
				});

				const [afterSuccess] = outputsOf(run, 'After Success');
				expect(afterSuccess.map((item) => item.json.input)).toEqual(
					okIndexes.map((index) => inputs[index]),
				);
				expect(afterSuccess.map((item) => item.json.result)).toEqual(
					success.map((item) => item.json),
				);
				const [afterError] = outputsOf(run, 'After Error');
				expect(afterError.map((item) => item.json.input)).toEqual(
					failIndexes.map((index) => inputs[index]),
				);
				expect(afterError.map((item) => item.json.result)).toEqual(
					failure.map((item) => item.json),
				);

				expect(requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual(
					[...expected.requests].sort(),
				);
				for (const request of requests) expect(request.headers['x-api-key']).toBe(sandbox().apiKey);
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
					if (isError(entry)) expectFailed(item.json, entry.failed);
					else expectSuccess(item.json, entry);
				});
				const [afterSuccess] = outputsOf(run, 'After Success');
				expect(afterSuccess.map((item) => item.json.input)).toEqual(inputs);
				expect(afterSuccess.map((item) => item.json.result)).toEqual(
					items.map((item) => item.json),
				);
				expect(outputsOf(run, 'After Error')).toEqual([]);
				expect(requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual(
					[...expected.requests].sort(),
				);
			});

			test('Stop Workflow: the run fails with the first failing item’s error, and nothing runs after the node', async () => {
				const { run, requests } = await execute(expected.fixture, 'stopWorkflow');
				const failure = expected.items[firstFailure];
				if (!isError(failure)) throw new Error(`${expected.fixture}: no item fails`);
				expectNaming(run.error?.message, failure.failed);
				expect(run.error?.context?.itemIndex).toBe(firstFailure);
				expect(run.runData['Outreach Sequences'][0].executionStatus).toBe('error');
				expect(run.runData['After Success']).toBeUndefined();
				expect(run.runData['After Error']).toBeUndefined();
				const sent = requests.map((request) => `${request.method} ${request.url}`);
				for (const request of sent) expect(expected.requests).toContain(request);
			});
		});
	},
);
