// Queue mode: n8n main with EXECUTIONS_MODE=queue, two `n8n worker`s, Debian's
// redis-server and PostgreSQL. The package is installed for main and, in their
// own user folders, for the workers — the step users miss. A webhook-triggered
// workflow must run on a worker and answer with the sandbox's data, the MCP
// example's tool calls run on the workers too, and a burst of events shared
// by both workers against one rate-limited service loses nothing and archives
// nothing twice (the figures go to artifacts/e2e/queue-burst.json).
import { mkdirSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { ARTIFACTS, N8N_CURRENT, type McpToolResult } from './harness/n8n.mts';
import { burstOutcome, expectEachArchivedOnce, postBurst } from './harness/burst.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

const WORKFLOW = path.join(here, 'workflows', 'queue-webhook.workflow.json');
const BURST_WORKFLOW = path.join(here, 'workflows', 'burst-webhook.workflow.json');
/** The burst: events at once, against a service that allows RATE per second. */
const EVENTS = 60;
const RATE = 5;
const MCP_EXAMPLE = path.join(here, '..', '..', 'examples', 'mcp-server.workflow.json');
const MCP_TOKEN = 'e2e-queue-mcp-token-5a81';

describe(`n8n ${N8N_CURRENT} in queue mode, with two workers`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.queue, ['--bulk-contacts', String(EVENTS)]);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: 'queue',
		run: 'queue',
		workers: 2,
		sandbox: sandbox(),
		credentials: [
			{
				id: 'outreachMcpToken',
				name: 'MCP client token',
				type: 'httpBearerAuth',
				data: { token: MCP_TOKEN },
			},
		],
		workflows: [WORKFLOW, MCP_EXAMPLE, BURST_WORKFLOW],
		publish: ['outreach-queue-webhook', 'outreach-burst-webhook', 'outreach-mcp-server'],
		ready: ['/mcp/outreach'],
	}));
	const url = () => n8n.server.url;
	const workers = () => n8n.workers;
	const workerLogs = () =>
		workers()
			.map((worker) => worker.log())
			.join('\n');

	test('a webhook-triggered workflow runs the node on a worker and answers with the sandbox’s data', async () => {
		await sandbox().reset();
		const response = await fetch(`${url()}/webhook/outreach-queue?id=uc-2`);
		const body = await response.text();
		expect(response.status).toBe(200);
		expect(JSON.parse(body)).toEqual(await sandbox().record('useCases', 'uc-2'));

		const requests = await sandbox().requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			'GET /v1/use_cases/uc-2',
		]);
		expect(requests[0].headers['x-api-key']).toBe(sandbox().apiKey);

		// A worker, not main, ran it.
		expect(workerLogs()).toMatch(/Worker started execution \d+/);
		expect(workerLogs()).toMatch(/Worker finished execution \d+/);
		expect(workerLogs()).not.toMatch(/Unrecognized node type/);
	});

	test('the MCP example: a client on main lists the four tools; the worker runs the calls; a 404 is an error result (isError)', async () => {
		const client = new Client({ name: 'outreach-e2e-queue', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${url()}/mcp/outreach`), {
				requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
			}),
		);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual([
				'Archive_Contact',
				'Archive_Contact_List',
				'Create_Sequence',
				'Get_Use_Case',
			]);

			await sandbox().reset();
			const found = (await client.callTool({
				name: 'Get_Use_Case',
				arguments: { useCaseId: 'uc-2' },
			})) as McpToolResult;
			expect(found.isError).toBeFalsy();
			expect(JSON.parse(found.content[0].text!)).toEqual([
				await sandbox().record('useCases', 'uc-2'),
			]);

			await sandbox().reset();
			const missing = (await client.callTool({
				name: 'Get_Use_Case',
				arguments: { useCaseId: 'zz-404' },
			})) as McpToolResult;
			expect(missing.isError).toBe(true);
			// In queue mode n8n's worker sends the thrown error as JSON: {"error":{"message":…,"name":…}}.
			const { error } = JSON.parse(missing.content[0].text!) as { error: { message: string } };
			// The node's words (test/unit/texts-http.test.mts), not n8n's: they name the use case.
			expect(error.message).toContain('"zz-404"');
			expect(workerLogs()).toMatch(/Tool call failed for MCP Trigger/);
			const requests = await sandbox().requests();
			expect(
				requests.map((request) => `${request.method} ${request.url} ${request.status}`),
			).toEqual(['GET /v1/use_cases/zz-404 404']);
		} finally {
			await client.close();
		}
	});

	test(`a burst of ${EVENTS} events shared by both workers against one limit of ${RATE} per second: nothing lost, nothing archived twice`, async () => {
		await sandbox().reset();
		await sandbox().setRateLimit({ rate: RATE, burst: RATE, retryAfter: 'seconds' });
		const before = workers().map(
			(worker) => (worker.log().match(/Worker finished execution/g) ?? []).length,
		);
		const { answers, seconds } = await postBurst(`${url()}/webhook/outreach-burst`, EVENTS);
		await sandbox().setRateLimit(undefined);
		const { archived, ...outcome } = burstOutcome(answers, await sandbox().requests());
		const ranOnEach = workers().map(
			(worker, index) =>
				(worker.log().match(/Worker finished execution/g) ?? []).length - before[index],
		);
		const result = {
			events: EVENTS,
			rate: RATE,
			workers: 2,
			executionsPerWorker: ranOnEach,
			...outcome,
			seconds,
			idealSeconds: EVENTS / RATE,
			ofIdeal: Math.round((seconds / (EVENTS / RATE)) * 100) / 100,
		};
		mkdirSync(ARTIFACTS, { recursive: true });
		writeFileSync(path.join(ARTIFACTS, 'queue-burst.json'), `${JSON.stringify(result, null, 2)}\n`);

		expectEachArchivedOnce(answers, { archived, ...outcome });
		// Both workers took part: each learned its own pace, none starved.
		expect(ranOnEach.every((count) => count > 0)).toBe(true);
	}, 240_000);
});
