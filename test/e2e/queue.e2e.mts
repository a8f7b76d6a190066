// Queue mode: n8n main with EXECUTIONS_MODE=queue, two `n8n worker`s, Debian's
// redis-server and PostgreSQL. The package is installed for main and, in their
// own user folders, for the workers — the step users miss. A webhook-triggered
// workflow must run on a worker and answer with the sandbox's data, the MCP
// example's tool calls run on the workers too, and a burst of events shared
// by both workers against one rate-limited service loses nothing and archives
// nothing twice (the figures go to artifacts/e2e/queue-burst.json).
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess } from '../harness/sandbox.mts';
import { recordLog } from './harness/logs.mts';
import {
	ARTIFACTS,
	N8N_CURRENT,
	freePort,
	importCredentials,
	importWorkflows,
	n8nEnv,
	packPackage,
	prepareN8n,
	publishWorkflow,
	startDaemon,
	userFolderWithPackage,
	waitForHttp,
	waitForWebhook,
	type Daemon,
	type McpToolResult,
} from './harness/n8n.mts';
import { startPostgres, startRedis, type Service } from './harness/services.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

const WORKFLOW = path.join(here, 'workflows', 'queue-webhook.workflow.json');
const BURST_WORKFLOW = path.join(here, 'workflows', 'burst-webhook.workflow.json');
/** The burst: events at once, against a service that allows RATE per second. */
const EVENTS = 60;
const RATE = 5;
const MCP_EXAMPLE = path.join(here, '..', '..', 'examples', 'mcp-server.workflow.json');
const MCP_TOKEN = 'e2e-queue-mcp-token-5a81';

describe(`n8n ${N8N_CURRENT} in queue mode, with two workers`, () => {
	let sandbox: SandboxProcess;
	let redis: Service;
	let postgres: Service & { user: string };
	let main: Daemon;
	let workers: Daemon[];
	let url: string;
	const workerLogs = () => workers.map((worker) => worker.log()).join('\n');

	beforeAll(async () => {
		const bin = prepareN8n(N8N_CURRENT);
		const tarball = packPackage();
		const mainFolder = await userFolderWithPackage(tarball);
		const workerFolders = [await userFolderWithPackage(tarball), await userFolderWithPackage(tarball)];
		[sandbox, redis, postgres] = await Promise.all([
			SandboxProcess.start(TEST_API_KEYS.queue, ['--bulk-contacts', String(EVENTS)]),
			startRedis(),
			startPostgres(),
		]);

		const shared = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			// Main and workers must share the key that encrypts credentials.
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			// Debug logging, so that the secret scan reads everything n8n can log.
			N8N_LOG_LEVEL: 'debug',
		};
		const port = await freePort();
		url = `http://127.0.0.1:${port}`;
		const mainEnv = n8nEnv(mainFolder, { ...shared, N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
		const workerHealth = [await freePort(), await freePort()];
		const workerEnvs = await Promise.all(
			workerFolders.map(async (folder, index) =>
				n8nEnv(folder, {
					...shared,
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(workerHealth[index]),
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				}),
			),
		);

		await importCredentials(bin, mainEnv, [
			{ id: 'outreachSandbox', name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
			{ id: 'outreachMcpToken', name: 'MCP client token', type: 'httpBearerAuth', data: { token: MCP_TOKEN } },
		]);
		await importWorkflows(bin, mainEnv, [WORKFLOW, MCP_EXAMPLE, BURST_WORKFLOW]);
		await publishWorkflow(bin, N8N_CURRENT, 'outreach-queue-webhook', mainEnv);
		await publishWorkflow(bin, N8N_CURRENT, 'outreach-burst-webhook', mainEnv);
		await publishWorkflow(bin, N8N_CURRENT, 'outreach-mcp-server', mainEnv);

		main = startDaemon(bin, ['start'], mainEnv);
		await waitForHttp(`${url}/healthz/readiness`, main);
		await waitForWebhook(new URL(`${url}/mcp/outreach`), main);
		workers = workerEnvs.map((env) => startDaemon(bin, ['worker', '--concurrency=10'], env));
		await Promise.all(workers.map((worker, index) => waitForHttp(`http://127.0.0.1:${workerHealth[index]}/healthz/readiness`, worker)));
	});

	afterAll(async () => {
		await Promise.all([main?.stop(), ...(workers ?? []).map((worker) => worker.stop())]);
		if (main) recordLog('queue-main', main.log());
		for (const [index, worker] of (workers ?? []).entries()) recordLog(`queue-worker-${index + 1}`, worker.log());
		await Promise.all([redis?.daemon.stop(), postgres?.daemon.stop(), sandbox?.close()]);
	});

	test('a webhook-triggered workflow runs the node on a worker and answers with the sandbox’s data', async () => {
		await sandbox.reset();
		const response = await fetch(`${url}/webhook/outreach-queue?id=uc-2`);
		const body = await response.text();
		expect(response.status).toBe(200);
		expect(JSON.parse(body)).toEqual(await sandbox.record('useCases', 'uc-2'));

		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /v1/use_cases/uc-2']);
		expect(requests[0].headers['x-api-key']).toBe(sandbox.apiKey);

		// A worker, not main, ran it.
		expect(workerLogs()).toMatch(/Worker started execution \d+/);
		expect(workerLogs()).toMatch(/Worker finished execution \d+/);
		expect(workerLogs()).not.toMatch(/Unrecognized node type/);
	});

	test('the MCP example: a client on main lists the four tools; the worker runs the calls; a 404 is an error result (isError)', async () => {
		const client = new Client({ name: 'outreach-e2e-queue', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp/outreach`), { requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } } }));
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(['Archive_Contact', 'Archive_Contact_List', 'Create_Sequence', 'Get_Use_Case']);

			await sandbox.reset();
			const found = (await client.callTool({ name: 'Get_Use_Case', arguments: { useCaseId: 'uc-2' } })) as McpToolResult;
			expect(found.isError).toBeFalsy();
			expect(JSON.parse(found.content[0].text!)).toEqual([await sandbox.record('useCases', 'uc-2')]);

			await sandbox.reset();
			const missing = (await client.callTool({ name: 'Get_Use_Case', arguments: { useCaseId: 'zz-404' } })) as McpToolResult;
			expect(missing.isError).toBe(true);
			// In queue mode n8n's worker sends the thrown error as JSON: {"error":{"message":…,"name":…}}.
			const { error } = JSON.parse(missing.content[0].text!) as { error: { message: string } };
			expect(error.message).toBe('Use case "zz-404" was not found (HTTP 404): Resource not found');
			expect(workerLogs()).toMatch(/Tool call failed for MCP Trigger/);
			const requests = await sandbox.requests();
			expect(requests.map((request) => `${request.method} ${request.url} ${request.status}`)).toEqual(['GET /v1/use_cases/zz-404 404']);
		} finally {
			await client.close();
		}
	});

	test(`a burst of ${EVENTS} events shared by both workers against one limit of ${RATE} per second: nothing lost, nothing archived twice`, async () => {
		await sandbox.reset();
		await sandbox.setRateLimit({ rate: RATE, burst: RATE, retryAfter: 'seconds' });
		const before = workers.map((worker) => (worker.log().match(/Worker finished execution/g) ?? []).length);
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: EVENTS }, async (_, index) => {
				const response = await fetch(`${url}/webhook/outreach-burst`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ id: `bulk-${index}` }),
				});
				return { status: response.status, body: (await response.json().catch(() => undefined)) as { id?: string } | undefined };
			}),
		);
		const seconds = (Date.now() - started) / 1000;
		await sandbox.setRateLimit(undefined);
		const requests = await sandbox.requests();
		const archived = requests.filter((request) => request.status === 200).map((request) => request.url);
		const ranOnEach = workers.map((worker, index) => (worker.log().match(/Worker finished execution/g) ?? []).length - before[index]);
		const result = {
			events: EVENTS,
			rate: RATE,
			workers: 2,
			executionsPerWorker: ranOnEach,
			succeeded: answers.filter((answer, index) => answer.status === 200 && answer.body?.id === `bulk-${index}`).length,
			rejected: requests.filter((request) => request.status === 429).length,
			duplicates: archived.length - new Set(archived).size,
			seconds,
			idealSeconds: EVENTS / RATE,
			ofIdeal: Math.round((seconds / (EVENTS / RATE)) * 100) / 100,
		};
		mkdirSync(ARTIFACTS, { recursive: true });
		writeFileSync(path.join(ARTIFACTS, 'queue-burst.json'), `${JSON.stringify(result, null, 2)}\n`);

		expect(answers.map((answer) => answer.status)).toEqual(Array(EVENTS).fill(200));
		expect(result.succeeded).toBe(EVENTS);
		expect([...archived].sort()).toEqual(Array.from({ length: EVENTS }, (_, index) => `/v1/contacts/bulk-${index}/archive`).sort());
		expect(result.duplicates).toBe(0);
		// Both workers took part: each learned its own pace, none starved.
		expect(ranOnEach.every((count) => count > 0)).toBe(true);
	}, 240_000);
});
