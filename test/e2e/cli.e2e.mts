// The packed package in real n8n, on both lines users run (2.x and the
// maintained 1.x): installed by `npm install <tarball>` into <user
// folder>/.n8n/nodes, workflows imported and run with Execute workflow (the
// editor's REST call) against the sandbox, each part on a service of its own.
// - Every fixture (every operation) runs under the three On Error modes;
//   downstream Set nodes read $('Items').item and $('Outreach Sequences').item
//   on both outputs. A redirect and network faults (a timeout, resets, a
//   refused port, an unknown host) each fail an item with the facts of what
//   happened (their words: test/unit). The run's hints: cli-hints.e2e.mts.
// - The credential's own test, a request n8n sends itself, as the credential
//   dialog asks for it (POST /rest/credentials/test), answered with a rule's
//   sentence or n8n's own words (harness/credentials.mts); the browser view is
//   in editor.e2e.mts, behind a proxy and under SSRF protection egress.e2e.mts.
// - n8n runs the node again: with Retry On Fail, a create that failed once
//   before the service wrote it is sent again and nothing else is. Under Stop,
//   the error says what was created, and Executions › Retry (either
//   loadWorkflow) creates each sequence exactly once (on a queue-mode worker:
//   queue.e2e.mts). A 500 on a create may have acted, so Unconfirmed Earlier
//   Try says to send such an item again: the user's choice once they know.
// - The schema preview: the server serves each operation's output schema, and
//   in chromium `id` from the unexecuted Create Sequence is dragged into an
//   Edit Fields value, which becomes {{ $json.id }}; nothing reaches the
//   service until the workflow runs, and then the value holds the new id.
//   Screenshots: artifacts/e2e/screenshots/schema-preview-<version>*.png.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { major } from '../../scripts/n8n/versions.mts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import type { Fault, SandboxProcess } from '../harness/sandbox.mts';
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
import {
	UNKNOWN_HOST_URL,
	credentialTestSays,
	outreachApiCredential,
	shownText,
} from './harness/credentials.mts';
import { openNode, screenshotPath, signedInContext, useChromium } from './harness/browser.mts';
import { retryExecution } from './harness/editor-rest.mts';
import {
	createsWhatTheEventLists,
	failsOnceBeforeWriting,
	nameOf,
	names,
	onCredential,
	postEvent,
} from './harness/re-runs.mts';
import {
	MANUAL_TRIGGER,
	outreachCredential,
	outreachNode,
	workflowOf,
} from './harness/workflows.mts';
import {
	N8N_CURRENT,
	N8N_MAINTAINED,
	NODE_TYPE,
	ROOT,
	freePort,
	outputsOf,
} from './harness/n8n.mts';
import { useN8n, useSandbox, type N8n } from './harness/stage.mts';

const PROBE = 'GET /v1/use_cases/n8n-credential-test';
const webPage = (status: number): Fault => ({
	status,
	body: '<html><body>Not the API</body></html>',
	headers: { 'Content-Type': 'text/html' },
});

type Says = ReturnType<typeof credentialTestSays>;

interface Case {
	id: string;
	/** The sentence the credential shows, of those `credentialTestSays` lists. */
	says: keyof Says;
	data: () => { apiKey: string; baseUrl: string; [field: string]: string };
	/** How the sandbox answers the probe, when not as the service would. */
	fault?: () => Fault;
	/** What the sandbox received: `PROBE status` lines. */
	reached: string[];
}

const STOP = 'outreach-rerun-stop';
const RETRY_ON_FAIL = 'outreach-rerun-retry-on-fail';
/**
 * Items whose earlier try may have acted are sent again. The tests post the same event again and
 * again: Repeat Recent Creates lets each new execution create what an earlier test's did.
 */
const SEND_AGAIN = { unconfirmedEarlierTry: 'sendAgain', repeatRecentCreates: true };

const post = (n8n: N8n, path: string, count: number) => postEvent(n8n, path, names(count));

/** The sandbox holds each name once, and the sequences it holds are the ones listed. */
async function expectEachCreatedOnce(sandbox: SandboxProcess, count: number): Promise<void> {
	expect(await sandbox.summary()).toMatchObject({ sequencesCreated: count, duplicateNames: 0 });
	const created = (await sandbox.requests())
		.filter((request) => request.status === 201)
		.map(nameOf);
	expect(created.sort()).toEqual(
		names(count)
			.map((item) => item.name)
			.sort(),
	);
}

/** Under Stop, the 24th of 40 creates fails once before it is written; the execution fails. */
async function failedExecution(n8n: N8n, sandbox: SandboxProcess): Promise<string> {
	await sandbox.reset();
	await sandbox.addFault(failsOnceBeforeWriting('S24'));
	const answer = await post(n8n, STOP, 40);
	expect(answer.status).not.toBe(200);
	const [latest] = await n8n.executions(STOP);
	expect(latest.status).toBe('error');
	return latest.id;
}

/** Executions › Retry, as the Executions list calls it; then the retry, which ran to its end. */
const retry = (n8n: N8n, id: string, loadWorkflow: boolean) =>
	retryExecution(n8n, STOP, id, loadWorkflow);

const OPERATIONS = ['sequence/create', 'contact/archive', 'contactList/archive', 'useCase/get'];
const WORKFLOW_ID = 'e2eSchemaPreview';

const shipped = (resourceOperation: string) =>
	JSON.parse(
		readFileSync(
			path.join(
				ROOT,
				'dist',
				'nodes',
				'OutreachSequences',
				'__schema__',
				'v1.0.0',
				`${resourceOperation}.json`,
			),
			'utf8',
		),
	) as {
		properties: Record<string, unknown>;
	};

/** Manual Trigger → Create Sequence (never run) → Edit Fields with one empty value, Sequence ID. */
function schemaWorkflow() {
	return workflowOf(WORKFLOW_ID, [
		MANUAL_TRIGGER,
		outreachNode(
			'Create Sequence',
			{ resource: 'sequence', operation: 'create', name: 'Mapped before running' },
			{ credentials: outreachCredential('outreachSchema') },
		),
		{
			name: 'Edit Fields',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: {
					assignments: [{ id: 'sequence-id', name: 'sequenceId', value: '', type: 'string' }],
				},
				options: {},
			},
		},
	]);
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s, package installed from its tarball',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.cli);
		const credentialService = useSandbox(TEST_API_KEYS.credentialTest);
		const reRunsService = useSandbox(TEST_API_KEYS.reRuns);
		const schemaService = useSandbox(TEST_API_KEYS.schemaPreview);
		const says = credentialTestSays(version);
		const good = () => ({ apiKey: credentialService().apiKey, baseUrl: credentialService().url });
		let refusedUrl = '';
		/** Where the credential test's redirect points: another host, which must never get the key. */
		const elsewhere: string[] = [];
		let elsewhereServer: http.Server;
		let elsewhereUrl: string;
		const cases: Case[] = [
			{ id: 'credTestGood', says: 'accepted', data: good, reached: [`${PROBE} 404`] },
			{
				id: 'credTestTrailingV1',
				says: 'accepted',
				data: () => ({ ...good(), baseUrl: ` ${credentialService().url}/v1/ ` }),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestWrongKey',
				says: 'wrongKey',
				data: () => ({ ...good(), apiKey: 'not-the-key' }),
				// n8n sends a credential's request again after a 401, as for a key it could refresh.
				reached: [`${PROBE} 401`, `${PROBE} 401`],
			},
			{
				id: 'credTestForbidden',
				says: 'forbidden',
				data: good,
				fault: () => ({ status: 403, body: { message: 'forbidden' } }),
				reached: [`${PROBE} 403`],
			},
			{
				id: 'credTestServerError',
				says: 'serverError',
				data: good,
				// A service that quotes the key back. n8n 1.x's debug log holds a failed test's answer
				// as it came (CredentialsTester), so there the answer quotes nothing.
				fault: () => ({
					status: 500,
					body: {
						message: major(version) >= 2 ? `no such key ${credentialService().apiKey}` : 'down',
					},
				}),
				reached: [`${PROBE} 500`],
			},
			{
				id: 'credTestDomains',
				says: 'accepted',
				// Allowed HTTP Request Domains names other hosts: n8n still lets the test reach the Base URL.
				data: () => ({
					...good(),
					allowedHttpRequestDomains: 'domains',
					allowedDomains: 'api.example.com',
				}),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestNoDomains',
				says: 'accepted',
				data: () => ({ ...good(), allowedHttpRequestDomains: 'none' }),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestWebPage404',
				says: 'webPage404',
				data: good,
				fault: () => webPage(404),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestWebPage200',
				says: 'webPage200',
				data: good,
				fault: () => webPage(200),
				reached: [`${PROBE} 200`],
			},
			{
				id: 'credTestRedirect',
				says: 'redirect',
				data: good,
				fault: () => ({ status: 302, headers: { Location: `${elsewhereUrl}/v1/use_cases/x` } }),
				reached: [`${PROBE} 302`],
			},
			{
				id: 'credTestSchemeless',
				says: 'schemeless',
				data: () => ({ ...good(), baseUrl: credentialService().url.replace(/^http:\/\//, '') }),
				reached: [],
			},
			{
				id: 'credTestRefused',
				says: 'refused',
				data: () => ({ ...good(), baseUrl: refusedUrl }),
				reached: [],
			},
			{
				id: 'credTestNoHost',
				says: 'unknownHost',
				data: () => ({ ...good(), baseUrl: UNKNOWN_HOST_URL }),
				reached: [],
			},
		];

		beforeAll(async () => {
			// A free port: nothing listens there.
			refusedUrl = `http://127.0.0.1:${await freePort()}`;
			elsewhereServer = http.createServer((req, res) => {
				elsewhere.push(String(req.headers['x-api-key']));
				res.end('{}');
			});
			await new Promise<void>((resolve) => elsewhereServer.listen(0, '127.0.0.2', resolve));
			elsewhereUrl = `http://127.0.0.2:${(elsewhereServer.address() as AddressInfo).port}`;
		});
		afterAll(() => elsewhereServer.close());
		const n8n = useN8n(() => ({
			version,
			name: `cli-${version}`,
			run: 'server',
			sandbox: sandbox(),
			credentials: [
				...unreachableCredentials(sandbox().apiKey, refusedUrl),
				...cases.map(({ id, data }) => ({
					id,
					name: id,
					type: 'outreachSequencesApi',
					data: data(),
				})),
				outreachApiCredential('outreachReRuns', reRunsService().apiKey, reRunsService().url),
				outreachApiCredential('outreachSchema', schemaService().apiKey, schemaService().url),
			],
			workflows: [
				...cliWorkflows(),
				createsWhatTheEventLists(
					STOP,
					onCredential('outreachReRuns', { requestOptions: SEND_AGAIN }),
				),
				createsWhatTheEventLists(
					RETRY_ON_FAIL,
					onCredential('outreachReRuns', {
						settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 },
						requestOptions: SEND_AGAIN,
					}),
				),
				schemaWorkflow(),
			],
			publish: [STOP, RETRY_ON_FAIL],
			ready: [`/webhook/${STOP}`, `/webhook/${RETRY_ON_FAIL}`],
		}));
		afterAll(() => {
			for (const service of [sandbox, credentialService, reRunsService, schemaService])
				expect(n8n.log()).not.toContain(service().apiKey);
		});
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

		describe('the credential test, as the credential dialog runs it', () => {
			const sandbox = credentialService;
			test.each(cases.map((entry) => [entry.id, entry] as const))(
				'%s',
				async (_, { id, says: which, data, fault, reached }) => {
					await sandbox().reset();
					if (fault) await sandbox().addFault({ pathPrefix: '/v1/use_cases/', ...fault() });
					const answer = await n8n.rest<{ status: string; message: string }>(
						'POST',
						'/credentials/test',
						{
							credentials: { id, name: id, type: 'outreachSequencesApi', data: data() },
						},
					);
					const { status } = says[which];
					const message = await shownText(n8n.server, says[which].message);
					expect(answer).toEqual({
						status,
						message: typeof message === 'string' ? message : expect.stringMatching(message),
					});
					expect(answer.message).not.toContain(sandbox().apiKey);
					const requests = await sandbox().requests();
					expect(
						requests.map((request) => `${request.method} ${request.url} ${request.status}`),
					).toEqual(reached);
					for (const request of requests) expect(request.headers['x-api-key']).toBe(data().apiKey);
				},
			);

			test('a redirect is not followed: the other host never got the key', () => {
				expect(elsewhere).toEqual([]);
			});
		});

		describe('n8n runs the node again', () => {
			const sandbox = reRunsService;

			test('Retry On Fail: a create that failed once before it was written goes out again, and nothing else; the answer is every sequence, once', async () => {
				await sandbox().reset();
				await sandbox().addFault(failsOnceBeforeWriting('S7'));
				const answer = await post(n8n, RETRY_ON_FAIL, 24);
				expect(answer.status).toBe(200);
				await expectEachCreatedOnce(sandbox(), 24);
				const sent = (await sandbox().requests()).map(nameOf);
				expect(sent.filter((name) => name === 'S7')).toHaveLength(2);
				expect(sent).toHaveLength(25);
				// The output is the service's answers, as a clean run would give them: each the sequence it holds.
				const output = answer.body as Array<{ id: string; name: string }>;
				expect(output.map((sequence) => sequence.name)).toEqual(names(24).map((item) => item.name));
				for (const sequence of output)
					expect(await sandbox().record('sequences', sequence.id)).toEqual(sequence);
			});

			test('Stop: the error stops on item 23 and names a few of the sequences created, each as the sandbox holds it', async () => {
				const id = await failedExecution(n8n, sandbox());
				const { data } = await n8n.execution(id);
				const created = (await sandbox().summary()).sequencesCreated;
				expect(data.resultData.error?.context?.itemIndex).toBe(23);
				// Its words, from each item's end: test/unit/stop-error.test.mts.
				const description = String(data.resultData.error?.description);
				const named = [...new Set(description.match(/\bseq-[\w-]+/g))];
				expect(named).toHaveLength(Math.min(5, created));
				for (const sequence of named)
					expect(await sandbox().record('sequences', sequence)).toMatchObject({ id: sequence });
			});

			test.each([false, true])(
				'Executions › Retry with loadWorkflow %s: the retry succeeds, and each sequence exists exactly once',
				async (loadWorkflow) => {
					const id = await failedExecution(n8n, sandbox());
					const retried = await retry(n8n, id, loadWorkflow);
					expect(retried).toMatchObject({ status: 'success', mode: 'retry' });
					await expectEachCreatedOnce(sandbox(), 40);
					// Only the item that failed went out twice: the record answered the rest.
					const sent = (await sandbox().requests()).map(nameOf);
					expect(sent.filter((name) => name === 'S24')).toHaveLength(2);
					expect(sent).toHaveLength(41);
					expect(new Set(sent).size).toBe(40);
				},
			);
		});

		describe('schema preview of the unexecuted node', () => {
			const sandbox = schemaService;
			const browser = useChromium();
			test.each(OPERATIONS)(
				'the server serves the shipped %s schema, unchanged',
				async (resourceOperation) => {
					const response = await fetch(
						`${n8n.server.url}/schemas/${NODE_TYPE}/1.0.0/${resourceOperation}.json`,
					);
					expect(response.status).toBe(200);
					expect(await response.json()).toEqual(shipped(resourceOperation));
				},
			);

			test('Edit Fields shows the preview of Create Sequence; id dragged into a value becomes {{ $json.id }}; running fills it', async () => {
				await sandbox().reset();
				const context = await signedInContext(browser(), n8n.server, {
					viewport: { width: 1600, height: 1000 },
				});
				const page = await context.newPage();
				await openNode(page, n8n.server, WORKFLOW_ID, 'Edit Fields');

				const input = page.locator('[data-test-id="ndv-input-panel"]');
				const item = (key: string) =>
					input
						.locator('[data-test-id="run-data-schema-item"]')
						.getByText(key, { exact: true })
						.first();
				await input
					.getByText(/Preview/)
					.first()
					.waitFor({ timeout: 60_000 });
				// Top-level fields of the contract's Sequence, as the shipped schema lists them.
				for (const key of Object.keys(shipped('sequence/create').properties))
					await item(key).waitFor();
				await page.screenshot({ path: screenshotPath(`schema-preview-${version}`) });

				// Drag `id` onto the value of Sequence ID, as a user does.
				const target = page
					.locator(
						'[data-test-id="assignment-collection-assignments"] [data-test-id="assignment-value"]',
					)
					.first();
				const from = (await item('id').boundingBox())!;
				const to = (await target.boundingBox())!;
				await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
				await page.mouse.down();
				for (let step = 1; step <= 20; step++) {
					await page.mouse.move(
						from.x + ((to.x + to.width / 2 - from.x) * step) / 20,
						from.y + ((to.y + to.height / 2 - from.y) * step) / 20,
					);
				}
				await page.mouse.up();
				await target.getByText('{{ $json.id }}').first().waitFor({ timeout: 10_000 });
				await page.screenshot({ path: screenshotPath(`schema-preview-${version}-mapped`) });

				// Saved as an expression, and nothing reached the service to get here.
				await page
					.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]')
					.first()
					.click();
				await page.keyboard.press('Control+s');
				type Saved = {
					nodes: Array<{
						name: string;
						parameters: { assignments: { assignments: Array<{ name: string; value: string }> } };
					}>;
				};
				const savedAssignments = async () =>
					(await n8n.rest<Saved>('GET', `/workflows/${WORKFLOW_ID}`)).nodes.find(
						(node) => node.name === 'Edit Fields',
					)!.parameters.assignments.assignments;
				for (let tries = 0; tries < 30 && (await savedAssignments())[0].value === ''; tries++)
					await page.waitForTimeout(500);
				expect(await savedAssignments()).toEqual([
					expect.objectContaining({ name: 'sequenceId', value: '={{ $json.id }}' }),
				]);
				expect(await sandbox().requests()).toEqual([]);

				// Run it: one sequence is created, and Sequence ID holds its id.
				await page.locator('[data-test-id="execute-workflow-button"]').click();
				await page
					.locator(
						'[data-test-id="canvas-node"][data-node-name="Edit Fields"] [data-test-id="canvas-node-status-success"]',
					)
					.waitFor({ timeout: 60_000 });
				const requests = await sandbox().requests();
				expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
					'POST /v1/sequences',
				]);
				const summary = await sandbox().summary();
				expect(summary.sequencesCreated).toBe(1);
				// The run's data stays in this page: open the node without reloading.
				await page.locator('[data-test-id="canvas-node"][data-node-name="Edit Fields"]').dblclick();
				const output = page.locator('[data-test-id="output-panel"]');
				await output.getByRole('radio', { name: 'JSON' }).click();
				const created = output.getByText(/seq-\d+-[0-9a-f]{8}/).first();
				await created.waitFor({ timeout: 30_000 });
				await page.screenshot({ path: screenshotPath(`schema-preview-${version}-executed`) });
				const shown = /seq-\d+-[0-9a-f]{8}/.exec((await created.textContent())!)![0];
				expect(await sandbox().record('sequences', shown)).toMatchObject({
					name: 'Mapped before running',
				});
				await context.close();
			});
		});
	},
);
