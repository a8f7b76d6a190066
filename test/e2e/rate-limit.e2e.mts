// A rate-limited service in real n8n, on both lines users run: 300 creates on
// the node's default settings against a sandbox that allows 50 requests per
// second (burst 50, Retry-After in seconds). Every item succeeds, in order, and
// the service creates each name exactly once.
import { readFileSync } from 'node:fs';

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess } from '../harness/sandbox.mts';
import { N8N_CURRENT, N8N_MAINTAINED, freePort, importCredentials, importWorkflows, n8nCli, n8nEnv, outputsOf, packPackage, prepareN8n, runDataOf, userFolderWithPackage } from './harness/n8n.mts';
import { recordLog } from './harness/logs.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

const ITEMS = 300;
const LIMIT = { rate: 50, burst: 50, retryAfter: 'seconds' as const };
const WORKFLOW_ID = 'e2eRateLimitedCreates';

/** The e2e create fixture, with 300 named items and the node on its defaults (no Request Options). */
function workflow(): Record<string, unknown> {
	const fixture = JSON.parse(readFileSync(path.join(here, 'workflows', 'sequence-create-fields.cli.workflow.json'), 'utf8')) as {
		id: string;
		name: string;
		nodes: Array<{ name: string; parameters: Record<string, unknown>; onError?: string }>;
	};
	fixture.id = WORKFLOW_ID;
	fixture.name = 'e2e rate-limited creates';
	for (const node of fixture.nodes) {
		if (node.name === 'Input') {
			const items = Array.from({ length: ITEMS }, (_, index) => ({ name: `Rate-limited ${index}`, hour: 9 }));
			node.parameters = { ...node.parameters, jsonOutput: JSON.stringify({ items }) };
		}
		if (node.name === 'Outreach Sequences') {
			node.onError = 'continueErrorOutput';
			delete node.parameters.requestOptions;
		}
	}
	return fixture;
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s against a service limited to 50 requests per second', (version) => {
	let bin: string;
	let env: NodeJS.ProcessEnv;
	let sandbox: SandboxProcess;

	beforeAll(async () => {
		bin = prepareN8n(version);
		env = n8nEnv(await userFolderWithPackage(packPackage()), { N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_LOG_LEVEL: 'info' });
		sandbox = await SandboxProcess.start(TEST_API_KEYS.rateLimit);
		await importCredentials(bin, env, [{ id: 'e2eSandbox', name: 'Outreach sandbox', type: 'outreachSequencesApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } }]);
		await importWorkflows(bin, env, [workflow()]);
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	test('300 creates on default settings: all succeed, in order, each name created exactly once', async () => {
		await sandbox.reset();
		await sandbox.setRateLimit(LIMIT);
		const result = await n8nCli(bin, ['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], env);
		recordLog(`rate-limit-${version}`, `exit ${result.code}\n${result.stdout}${result.stderr}`);
		const [success, failure] = outputsOf(runDataOf(result.stdout), 'Outreach Sequences');

		expect(failure).toEqual([]);
		expect(success).toHaveLength(ITEMS);
		expect(success.map((item) => item.json.name)).toEqual(Array.from({ length: ITEMS }, (_, index) => `Rate-limited ${index}`));
		expect(success.map((item) => item.pairedItem)).toEqual(Array.from({ length: ITEMS }, (_, item) => ({ item })));

		const summary = await sandbox.summary();
		expect(summary.sequencesCreated).toBe(ITEMS);
		expect(summary.duplicateNames).toBe(0);
		expect(summary.byStatus['201']).toBe(ITEMS);
		// The limit was reached, and the node slowed down instead of storming it.
		expect(summary.byStatus['429']).toBeGreaterThan(0);
		expect(summary.byStatus['429']).toBeLessThanOrEqual(ITEMS * 0.2);
		// n8n's log has a line when the node starts waiting on the service.
		expect(`${result.stdout}${result.stderr}`).toMatch(/Outreach Sequences: the service pushed back \(HTTP 429, Retry-After: \d+\); no new request starts for/);
	}, 120_000);
});
