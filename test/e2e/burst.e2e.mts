// Many executions, one service: a burst of webhook events, each its own
// execution archiving one contact, against a service that allows fewer
// requests per second than n8n runs webhook executions (about 13 per second
// on CI's 2 cores). In real n8n (`n8n start`, the workflow published), once
// for each form of Retry-After, and once with the IETF rate-limit headers.
// Every execution must succeed, each contact be archived once, and few
// requests be rejected. The figures go to artifacts/e2e/burst-<version>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess, type RateLimit, type RecordedRequest } from '../harness/sandbox.mts';
import { recordLog } from './harness/logs.mts';
import {
	ARTIFACTS,
	N8N_CURRENT,
	N8N_MAINTAINED,
	ROOT,
	freePort,
	importCredentials,
	importWorkflows,
	n8nEnv,
	packPackage,
	prepareN8n,
	publishWorkflow,
	startN8nServer,
	userFolderWithPackage,
	waitForWebhook,
	type N8nServer,
} from './harness/n8n.mts';

const WORKFLOW = path.join(ROOT, 'test', 'e2e', 'workflows', 'burst-webhook.workflow.json');
/** Events at once, and what the service allows: 5 per second, so the ideal is EVENTS ÷ RATE seconds. */
const EVENTS = 60;
const RATE = 5;

interface BurstResult {
	limit: RateLimit;
	succeeded: number;
	rejected: number;
	duplicates: number;
	seconds: number;
	ideal: number;
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s: a burst of webhook executions against one rate-limited service', (version) => {
	let sandbox: SandboxProcess;
	let server: N8nServer;
	let url: URL;
	const results: BurstResult[] = [];

	beforeAll(async () => {
		const bin = prepareN8n(version);
		const folder = await userFolderWithPackage(packPackage());
		sandbox = await SandboxProcess.start(TEST_API_KEYS.burst, ['--bulk-contacts', String(EVENTS)]);
		const port = await freePort();
		const env = n8nEnv(folder, { N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_LOG_LEVEL: 'info' });
		await importCredentials(bin, env, [
			{ id: 'outreachSandbox', name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
		]);
		await importWorkflows(bin, env, [WORKFLOW]);
		await publishWorkflow(bin, version, 'outreach-burst-webhook', env);
		server = await startN8nServer(bin, env, port);
		url = new URL(`${server.url}/webhook/outreach-burst`);
		await waitForWebhook(url, server.daemon);
		// waitForWebhook's probe is an execution too; it archived nothing.
		await sandbox.reset();
	});

	afterAll(async () => {
		recordLog(`burst-${version}`, server?.daemon.log() ?? '');
		await server?.daemon.stop();
		await sandbox?.close();
		mkdirSync(ARTIFACTS, { recursive: true });
		writeFileSync(path.join(ARTIFACTS, `burst-${version}.json`), `${JSON.stringify(results, null, 2)}\n`);
	});

	test.each<RateLimit>([
		{ rate: RATE, burst: RATE, retryAfter: 'seconds' },
		{ rate: RATE, burst: RATE, retryAfter: 'date' },
		{ rate: RATE, burst: RATE, retryAfter: 'none' },
		{ rate: RATE, burst: RATE, retryAfter: 'none', headers: 'ietf' },
	])('%j: every execution succeeds, each contact is archived once, few are rejected', async (limit) => {
		await sandbox.reset();
		await sandbox.setRateLimit(limit);
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: EVENTS }, async (_, index) => {
				const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `bulk-${index}` }) });
				return { status: response.status, body: (await response.json().catch(() => undefined)) as { id?: string } | undefined };
			}),
		);
		const seconds = (Date.now() - started) / 1000;
		await sandbox.setRateLimit(undefined);

		const requests: RecordedRequest[] = await sandbox.requests();
		const archived = requests.filter((request) => request.status === 200).map((request) => request.url);
		const result = {
			limit,
			succeeded: answers.filter((answer, index) => answer.status === 200 && answer.body?.id === `bulk-${index}`).length,
			rejected: requests.filter((request) => request.status === 429).length,
			duplicates: archived.length - new Set(archived).size,
			seconds,
			ideal: EVENTS / RATE,
		};
		results.push(result);
		expect(answers.map((answer) => answer.status)).toEqual(Array(EVENTS).fill(200));
		expect(result.succeeded).toBe(EVENTS);
		expect([...archived].sort()).toEqual(Array.from({ length: EVENTS }, (_, index) => `/v1/contacts/bulk-${index}/archive`).sort());
		expect(result.duplicates).toBe(0);
		expect(result.rejected).toBeLessThanOrEqual(EVENTS * 0.15);
	}, 180_000);

	test("n8n's log says when an execution starts behind the pace others learned, and never holds the key", () => {
		const log = server.daemon.log();
		expect(log).toContain(`Outreach Sequences: this execution waits its turn at the pace that ${sandbox.url}`);
		expect(log).not.toContain(sandbox.apiKey);
	});
});
