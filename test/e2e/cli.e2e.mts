// The packed package in real n8n on both lines users run (2.x and the
// maintained 1.x), installed by `npm install <tarball>` into <user
// folder>/.n8n/nodes, workflows run as the editor runs them against the
// sandbox: a smoke suite. Every registered operation once (each answer, fault
// and On Error mode in n8n's engine: test/engine/on-error, fault-matrix);
// the credential's own test on n8n's path, as the credential dialog asks for
// it (the browser view: editor.e2e.mts; behind a proxy and under SSRF
// protection: egress.e2e.mts); one retry path, Executions › Retry, which
// creates each sequence once; the shipped send-again example; the HTTP
// Request node with this credential (2.x); and the schema preview: the
// server serves each operation's schema, and in chromium `id` from the
// unexecuted Create Sequence is dragged into an Edit Fields value, unsent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_MAX_WAIT_SECONDS } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { major } from '../../scripts/n8n/versions.mts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import type { Fault } from '../harness/sandbox.mts';
import { OPERATIONS, operationWorkflow } from './harness/cli.mts';
import { UNKNOWN_HOST_URL, credentialTestSays, shownText } from './harness/credentials.mts';
import { openNode, screenshotPath, signedInContext, useChromium } from './harness/browser.mts';
import { getWorkflow, retryExecution } from './harness/editor-rest.mts';
import {
	createsWhatTheEventLists,
	failsOnceBeforeWriting,
	nameOf,
	names,
	onCredential,
	postEvent,
} from './harness/re-runs.mts';
import { SEND_AGAIN, SEND_AGAIN_FILE, SEND_AGAIN_NAMES } from './harness/send-again.mts';
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
import { useN8n, useSandbox } from './harness/stage.mts';

const PROBE = 'GET /v1/use_cases/n8n-credential-test';
const webPage = (status: number): Fault => ({
	status,
	body: '<html><body>Not the API</body></html>',
	headers: { 'Content-Type': 'text/html' },
});
const STOP = 'outreach-rerun-stop';
const SCHEMA_WORKFLOW = 'e2eSchemaPreview';
const HTTP = 'HTTP Request';

const shipped = (key: string) =>
	JSON.parse(
		readFileSync(
			path.join(ROOT, 'dist', 'nodes', 'OutreachSequences', '__schema__', 'v1.0.0', `${key}.json`),
			'utf8',
		),
	) as { properties: Record<string, unknown> };

/** Manual Trigger → Create Sequence (never run) → Edit Fields with one empty value, Sequence ID. */
const schemaWorkflow = () =>
	workflowOf(SCHEMA_WORKFLOW, [
		MANUAL_TRIGGER,
		outreachNode(
			'Create Sequence',
			{ resource: 'sequence', operation: 'create', name: 'Mapped before running' },
			{ credentials: outreachCredential('outreachSandbox') },
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

/** Manual Trigger → the HTTP Request node, authenticated with the Outreach Sequences API credential `credential`. */
const httpRequest = (id: string, credential: string, url: string, post = false) =>
	workflowOf(id, [
		MANUAL_TRIGGER,
		{
			name: HTTP,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials: outreachCredential(credential),
			parameters: {
				method: post ? 'POST' : 'GET',
				url,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'outreachSequencesApi',
				options: {},
				...(post && { sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: '{}' }),
			},
		},
	]);

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s, package installed from its tarball',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.cli);
		const says = credentialTestSays(version);
		const good = () => ({ apiKey: sandbox().apiKey, baseUrl: sandbox().url });
		const at = (baseUrl: () => string) => () => ({ ...good(), baseUrl: baseUrl() });
		let refusedUrl = '';
		/** Where the credential test's redirect points: another host, which must never get the key. */
		const elsewhere: string[] = [];
		let elsewhereServer: http.Server;
		let elsewhereUrl = '';
		/** Each case: the sentence the test shows (of `says`), the credential, the sandbox's answer, what reached it. */
		const cases = [
			{ id: 'credTestGood', says: 'accepted' },
			{
				id: 'credTestTrailingV1',
				says: 'accepted',
				data: at(() => ` ${sandbox().url}/v1/ `),
			},
			{
				id: 'credTestWrongKey',
				says: 'wrongKey',
				data: () => ({ ...good(), apiKey: 'not-the-key' }),
				// n8n sends a credential's request again after a 401, as for a key it could refresh.
				reached: [`${PROBE} 401`, `${PROBE} 401`],
			},
			{ id: 'credTestForbidden', says: 'forbidden', fault: () => ({ status: 403 }) },
			{
				id: 'credTestServerError',
				says: 'serverError',
				// A service that quotes the key back. n8n 1.x's debug log holds a failed test's answer
				// as it came (CredentialsTester), so there the answer quotes nothing.
				fault: () => ({
					status: 500,
					body: { message: major(version) >= 2 ? `no such key ${sandbox().apiKey}` : 'down' },
				}),
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
			},
			{ id: 'credTestWebPage404', says: 'webPage404', fault: () => webPage(404) },
			{ id: 'credTestWebPage200', says: 'webPage200', fault: () => webPage(200) },
			{
				id: 'credTestRedirect',
				says: 'redirect',
				fault: () => ({ status: 302, headers: { Location: `${elsewhereUrl}/v1/use_cases/x` } }),
			},
			{
				id: 'credTestSchemeless',
				says: 'schemeless',
				data: at(() => sandbox().url.replace(/^http:\/\//, '')),
				reached: [],
			},
			{
				id: 'credTestRefused',
				says: 'refused',
				data: at(() => refusedUrl),
				reached: [],
			},
			{
				id: 'credTestNoHost',
				says: 'unknownHost',
				data: at(() => UNKNOWN_HOST_URL),
				reached: [],
			},
		].map((entry) => ({ data: good, ...entry, says: entry.says as keyof typeof says }));

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
			credentials: cases.map(({ id, data }) => ({
				id,
				name: id,
				type: 'outreachSequencesApi',
				data: data(),
			})),
			workflows: [
				...OPERATIONS.map(operationWorkflow),
				createsWhatTheEventLists(
					STOP,
					onCredential('outreachSandbox', {
						requestOptions: { unconfirmedEarlierTry: 'sendAgain', repeatRecentCreates: true },
					}),
				),
				SEND_AGAIN_FILE,
				schemaWorkflow(),
				httpRequest('httpGet', 'outreachSandbox', `${sandbox().url}/v1/use_cases/uc-1`),
				httpRequest('httpPost', 'outreachSandbox', `${sandbox().url}/v1/sequences`, true),
				httpRequest('httpRestricted', 'credTestDomains', `${sandbox().url}/v1/use_cases/uc-1`),
			],
			publish: [STOP],
			ready: [`/webhook/${STOP}`],
		}));
		afterAll(() => expect(n8n.log()).not.toContain(sandbox().apiKey));
		beforeEach(async () => {
			await n8n.forgetMemory();
			await sandbox().reset();
		});
		test.each(OPERATIONS)(
			'$key: one item per input, each linked to it; only the sendable ones sent, with the key',
			async (operation) => {
				const { run } = await n8n.execute(operation.workflow);
				expect(run.error).toBeUndefined();
				const [items] = outputsOf(run, 'Outreach Sequences');
				expect(items.map((item) => item.pairedItem)).toEqual(
					operation.values.map((_, item) => ({ item })),
				);
				const [answered, ...failed] = items.map((item) => item.json);
				const held = await sandbox().record(
					operation.route.collection as 'sequences',
					String(answered.id),
				);
				expect(answered).toEqual(held);
				// By ID: the unknown one answered 404, sent once; the blank one never sent.
				expect(failed.map((json) => json.message)).toEqual(
					operation.values.slice(1).map((value) => ({
						statusCode: value ? 404 : null,
						networkError: null,
						timesSent: value ? 1 : 0,
						retryAfterSeconds: null,
						outcome: 'notActed',
					})),
				);
				const sent = await sandbox().requests();
				expect(sent).toHaveLength(operation.values.filter(Boolean).length);
				for (const request of sent) expect(request.headers['x-api-key']).toBe(sandbox().apiKey);
			},
		);

		test.each(cases.map((entry) => [entry.id, entry] as const))(
			'the credential test, as the credential dialog runs it: %s',
			async (_, { id, says: which, data, fault, reached }) => {
				const answered = fault?.();
				if (answered) await sandbox().addFault({ pathPrefix: '/v1/use_cases/', ...answered });
				const answer = await n8n.rest<{ status: string; message: string }>(
					'POST',
					'/credentials/test',
					{ credentials: { id, name: id, type: 'outreachSequencesApi', data: data() } },
				);
				const message = await shownText(n8n.server, says[which].message);
				expect(answer).toEqual({
					status: says[which].status,
					message: typeof message === 'string' ? message : expect.stringMatching(message),
				});
				const received = await sandbox().requests();
				expect(
					received.map((request) => `${request.method} ${request.url} ${request.status}`),
				).toEqual(reached ?? [`${PROBE} ${answered?.status ?? 404}`]);
				for (const request of received) expect(request.headers['x-api-key']).toBe(data().apiKey);
				// A redirect is not followed: the other host never gets the key.
				expect(elsewhere).toEqual([]);
			},
		);

		test('Executions › Retry after a Stop at the 24th of 40 creates: each sequence exists once; only the failed one went twice', async () => {
			await sandbox().addFault(failsOnceBeforeWriting('S24'));
			expect((await postEvent(n8n, STOP, names(40))).status).not.toBe(200);
			const [failed] = await n8n.executions(STOP);
			expect(failed.status).toBe('error');
			const retried = await retryExecution(n8n, STOP, failed.id, true);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry' });
			expect(await sandbox().summary()).toMatchObject({ sequencesCreated: 40, duplicateNames: 0 });
			const sent = (await sandbox().requests()).map(nameOf);
			expect(sent.filter((name) => name === 'S24')).toHaveLength(2);
			expect(sent).toHaveLength(41);
		});

		test('the send-again example: only what the service did not act on is created again, once', async () => {
			const [spring, summer, autumn] = SEND_AGAIN_NAMES;
			// Summer: a 429 asking for a longer wait than Max Wait allows (the service did not act);
			// Autumn: a 500 (it may have). Spring: no fault.
			const create = { pathPrefix: '/v1/sequences', method: 'POST' };
			await sandbox().addFault({
				...create,
				bodyContains: summer,
				status: 429,
				headers: { 'Retry-After': String(DEFAULT_MAX_WAIT_SECONDS * 2) },
				times: 1,
			});
			await sandbox().addFault({ ...create, bodyContains: autumn, status: 500 });
			const { run } = await n8n.execute(SEND_AGAIN.id);
			expect(run.error).toBeUndefined();
			const [success, failure] = outputsOf(run, 'Create Sequence');
			expect(success.map((item) => item.json.name)).toEqual([spring]);
			expect(failure.map((item) => [item.json.name, item.pairedItem])).toEqual([
				[summer, { item: 1 }],
				[autumn, { item: 2 }],
			]);
			expect(failure.map((item) => (item.json.message as { outcome: string }).outcome)).toEqual([
				'notActed',
				'mayHaveActed',
			]);
			const [again] = outputsOf(run, 'Create Sequence again');
			expect(again.map((item) => item.json.name)).toEqual([summer]);
			expect(await sandbox().summary()).toMatchObject({ sequencesCreated: 2, duplicateNames: 0 });
			expect((await sandbox().requests()).map(nameOf).sort()).toEqual(
				[spring, summer, summer, autumn].sort(),
			);
		});

		// Endpoints this node doesn't cover: the HTTP Request node with Predefined Credential Type › Outreach
		// Sequences API gets the key from the credential's authenticate; its Allowed Domains bind that node only.
		if (major(version) >= 2)
			test('the HTTP Request node with this credential: one X-API-Key beside its own headers; Allowed Domains stops it elsewhere, not this node', async () => {
				for (const id of ['httpGet', 'httpPost'])
					expect((await n8n.execute(id)).run.error).toBeUndefined();
				const received = await sandbox().requests();
				expect(received.map((request) => [request.url, request.headers['x-api-key']])).toEqual([
					['/v1/use_cases/uc-1', sandbox().apiKey],
					['/v1/sequences', sandbox().apiKey],
				]);
				expect(received[1].headers['content-type']).toBe('application/json');
				expect((await n8n.execute('httpRestricted')).run.error).toBeDefined();
				expect(await sandbox().requests()).toHaveLength(2);
			});

		describe('schema preview of the unexecuted node', () => {
			const browser = useChromium();
			test.each(OPERATIONS.map(({ key }) => key))(
				'the server serves the shipped %s schema, unchanged',
				async (key) => {
					const response = await fetch(`${n8n.server.url}/schemas/${NODE_TYPE}/1.0.0/${key}.json`);
					expect(response.status).toBe(200);
					expect(await response.json()).toEqual(shipped(key));
				},
			);

			test('Edit Fields shows the preview of Create Sequence; id dragged into a value is saved as {{ $json.id }}, nothing sent', async () => {
				const context = await signedInContext(browser(), n8n.server, {
					viewport: { width: 1600, height: 1000 },
				});
				const page = await context.newPage();
				await openNode(page, n8n.server, SCHEMA_WORKFLOW, 'Edit Fields');
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
				for (let step = 1; step <= 20; step++)
					await page.mouse.move(
						from.x + ((to.x + to.width / 2 - from.x) * step) / 20,
						from.y + ((to.y + to.height / 2 - from.y) * step) / 20,
					);
				await page.mouse.up();
				await target.getByText('{{ $json.id }}').first().waitFor({ timeout: 10_000 });

				// Saved as an expression, and nothing reached the service to get here.
				await page
					.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]')
					.first()
					.click();
				await page.keyboard.press('Control+s');
				const saved = async () =>
					(
						(await getWorkflow(n8n, SCHEMA_WORKFLOW)).nodes.find(
							(node) => node.name === 'Edit Fields',
						)!.parameters as {
							assignments: { assignments: Array<{ name: string; value: string }> };
						}
					).assignments.assignments;
				for (let tries = 0; tries < 30 && (await saved())[0].value === ''; tries++)
					await page.waitForTimeout(500);
				expect(await saved()).toEqual([
					expect.objectContaining({ name: 'sequenceId', value: '={{ $json.id }}' }),
				]);
				expect(await sandbox().requests()).toEqual([]);
				await context.close();
			});
		});
	},
);
