// Queue mode on one n8n: main with EXECUTIONS_MODE=queue, two `n8n worker`s, Debian's
// redis-server and PostgreSQL, manual executions offloaded to the workers and n8n's queue timers
// shortened, so that a killed worker's executions turn `error` in seconds, not 100. The package is
// installed for main and, in their own user folders, for the workers (the step users miss). Each
// part has a service of its own, so that no pace learned in one slows another: a webhook and the
// MCP example's tool calls run on a worker; a burst of executions on both workers shares one
// rate-limited service; the same event delivered 12 times at once (Skip Items Done Before);
// Executions › Retry on a worker; and the one memory in PostgreSQL: Execute workflow twice, and a
// worker killed mid-run, every call delivered again. Figures: artifacts/e2e/re-runs-figures.json.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { MAX_IN_FLIGHT } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import { executionIds, newExecutions, outputOf, sleep } from './harness/crash.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { retryExecution, runManually, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_CURRENT, type McpToolResult } from './harness/n8n.mts';
import {
	CREATE_NODE,
	KEYED,
	byName,
	createsTheseNames,
	createsWhatTheEventLists,
	expectEachOnce,
	failsOnceBeforeWriting,
	names,
	onCredential,
	postEvent,
	twice,
} from './harness/re-runs.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const here = path.dirname(fileURLToPath(import.meta.url));
const SUITE = 'queue';
const MCP_TOKEN = 'e2e-queue-mcp-token-5a81';
/** The burst: events at once, against a service that allows RATE per second. */
const EVENTS = 40;
const RATE = 5;
const KEYED_HOOK = 'outreach-skip-done-before-queue';
const DELIVERIES = 12;
const STOP = 'outreach-rerun-stop';
const HOOK = 'outreach-memory-queue';
const MANUAL = 'outreach-memory-queue-manual';
const PREFIXES = ['P', 'Q', 'R', 'S'];
const ITEMS = 100;

type Item = Record<string, unknown>;

describe(`n8n ${N8N_CURRENT} in queue mode, with two workers`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.queue, ['--bulk-contacts', String(EVENTS)]);
	const keyed = useSandbox(TEST_API_KEYS.skipDoneBeforeQueue);
	const reRuns = useSandbox(TEST_API_KEYS.reRuns);
	const memory = useSandbox(TEST_API_KEYS.memoryQueue, ['--rate-limit', '40']);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: SUITE,
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
			outreachApiCredential('outreachKeyed', keyed().apiKey, keyed().url),
			outreachApiCredential('outreachReRuns', reRuns().apiKey, reRuns().url),
			outreachApiCredential('outreachMemory', memory().apiKey, memory().url),
		],
		workflows: [
			path.join(here, 'workflows', 'queue-webhook.workflow.json'),
			path.join(here, 'workflows', 'burst-webhook.workflow.json'),
			path.join(here, '..', '..', 'examples', 'mcp-server.workflow.json'),
			createsWhatTheEventLists(KEYED_HOOK, onCredential('outreachKeyed', KEYED)),
			createsWhatTheEventLists(
				STOP,
				onCredential('outreachReRuns', {
					requestOptions: { unconfirmedEarlierTry: 'sendAgain', repeatRecentCreates: true },
				}),
			),
			createsWhatTheEventLists(
				HOOK,
				onCredential('outreachMemory', { settings: { onError: 'continueRegularOutput' } }),
				'onReceived',
			),
			createsTheseNames(MANUAL, names(5, 'M'), onCredential('outreachMemory')),
		],
		publish: [
			'outreach-queue-webhook',
			'outreach-burst-webhook',
			'outreach-mcp-server',
			KEYED_HOOK,
			STOP,
			HOOK,
		],
		ready: ['/mcp/outreach', `/webhook/${KEYED_HOOK}`, `/webhook/${STOP}`, `/webhook/${HOOK}`],
		env: {
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			QUEUE_WORKER_LOCK_DURATION: '4000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
			QUEUE_WORKER_STALLED_INTERVAL: '4000',
		},
	}));
	afterAll(() => {
		for (const service of [sandbox, keyed, reRuns, memory])
			expect(n8n.log()).not.toContain(service().apiKey);
	});
	const workerLogs = () => n8n.workers.map((worker) => worker.log()).join('\n');
	/** How many of these executions each worker started. */
	const startedBy = (ids: string[]) =>
		n8n.workers.map(
			(worker) =>
				ids.filter((id) => new RegExp(`Worker started execution ${id}\\b`).test(worker.log()))
					.length,
		);

	test('a webhook-triggered workflow runs the node on a worker and answers with the sandbox’s data', async () => {
		await sandbox().reset();
		const response = await fetch(`${n8n.server.url}/webhook/outreach-queue?id=uc-2`);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual(await sandbox().record('useCases', 'uc-2'));
		const requests = await sandbox().requests();
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			'GET /v1/use_cases/uc-2',
		]);
		expect(requests[0].headers['x-api-key']).toBe(sandbox().apiKey);
		expect(workerLogs()).toMatch(/Worker finished execution \d+/);
		expect(workerLogs()).not.toMatch(/Unrecognized node type/);
	});

	test('the MCP example: a client on main calls a tool; the worker runs it; a 404 is an error result (isError)', async () => {
		const client = new Client({ name: 'outreach-e2e-queue', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${n8n.server.url}/mcp/outreach`), {
				requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
			}),
		);
		try {
			const call = async (useCaseId: string) =>
				(await client.callTool({
					name: 'Get_Use_Case',
					arguments: { useCaseId },
				})) as McpToolResult;
			await sandbox().reset();
			const found = await call('uc-2');
			expect(found.isError).toBeFalsy();
			expect(JSON.parse(found.content[0].text!)).toEqual([
				await sandbox().record('useCases', 'uc-2'),
			]);
			await sandbox().reset();
			expect((await call('zz-404')).isError).toBe(true);
			expect(workerLogs()).toMatch(/Tool call failed for MCP Trigger/);
			const requests = await sandbox().requests();
			expect(
				requests.map((request) => `${request.method} ${request.url} ${request.status}`),
			).toEqual(['GET /v1/use_cases/zz-404 404']);
		} finally {
			await client.close();
		}
	});

	test(`a burst of ${EVENTS} executions on both workers against one limit of ${RATE} per second: each answered with its contact, each archived once`, async () => {
		await sandbox().reset();
		await sandbox().setRateLimit({ rate: RATE, burst: RATE, retryAfter: 'seconds' });
		const before = await executionIds(n8n, 'outreach-burst-webhook');
		const answers = await Promise.all(
			Array.from({ length: EVENTS }, async (_, index) => {
				const response = await fetch(`${n8n.server.url}/webhook/outreach-burst`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ id: `bulk-${index}` }),
				});
				return [response.status, ((await response.json()) as Item).id];
			}),
		);
		await sandbox().setRateLimit(undefined);
		const requests = await sandbox().requests();
		const archived = requests
			.filter((request) => request.status === 200)
			.map((request) => request.url);
		const ran = await newExecutions(n8n, 'outreach-burst-webhook', before, EVENTS);
		const byWorker = startedBy(ran);
		recordFigures(SUITE, N8N_CURRENT, `a burst of ${EVENTS} at ${RATE}/s`, {
			rejected: requests.filter((request) => request.status === 429).length,
			byWorker,
		});
		expect(answers).toEqual(Array.from({ length: EVENTS }, (_, index) => [200, `bulk-${index}`]));
		expect(archived.sort()).toEqual(
			Array.from({ length: EVENTS }, (_, index) => `/v1/contacts/bulk-${index}/archive`).sort(),
		);
		expect(requests.every((request) => request.status === 200 || request.status === 429)).toBe(
			true,
		);
		expect(byWorker.every((count) => count > 0)).toBe(true);
	}, 240_000);

	test(`#36 the same event delivered ${DELIVERIES} times at once, on both workers: each sequence is created once; every other delivery skipped it or failed it unsent`, async () => {
		await keyed().reset();
		const event = names(5, 'queue-');
		const delivered = await Promise.all(
			Array.from({ length: DELIVERIES }, () => postEvent(n8n, KEYED_HOOK, event)),
		);
		const after = await byName(keyed());
		const byWorker = startedBy(
			(await n8n.executions(KEYED_HOOK)).slice(0, DELIVERIES).map((run) => run.id),
		);
		expect(delivered.map((answer) => answer.status)).toEqual(Array(DELIVERIES).fill(200));
		expect(byWorker.every((count) => count > 0)).toBe(true);
		expectEachOnce(after, event);
		const answers = delivered.map((answer) => answer.body as Item[]);
		for (const [index, { name }] of event.entries()) {
			const items = answers.map((answer) => answer[index]);
			const made = items.filter(
				(item) => item.skipped !== true && item.id === after.records.get(name)?.id,
			);
			const others = items.filter((item) => !made.includes(item));
			const unsent = others.filter(
				(item) => item.skipped === true || (item.message as Item)?.timesSent === 0,
			);
			expect({ name, made: made.length, unsent: unsent.length }).toEqual({
				name,
				made: 1,
				unsent: DELIVERIES - 1,
			});
		}
	});

	test('Executions › Retry of a failed execution: a worker runs it from the saved record, and each sequence exists exactly once', async () => {
		await reRuns().reset();
		await reRuns().addFault(failsOnceBeforeWriting('S24'));
		expect((await postEvent(n8n, STOP, names(40))).status).not.toBe(200);
		const [failed] = await n8n.executions(STOP);
		expect(failed.status).toBe('error');
		const retried = await retryExecution(n8n, STOP, failed.id, false);
		expect(retried).toMatchObject({ status: 'success', mode: 'retry' });
		expect(await reRuns().summary()).toMatchObject({ sequencesCreated: 40, duplicateNames: 0 });
		expect(startedBy([retried.id]).reduce((sum, count) => sum + count)).toBe(1);
	});

	test('Execute workflow twice, run on the workers: the second creates nothing', async () => {
		await memory().reset();
		const first = await runManually(n8n, MANUAL);
		const second = await runManually(n8n, MANUAL);
		expect([first.status, second.status]).toEqual(['success', 'success']);
		expect(outputOf(second, CREATE_NODE).map((item) => item.json.skipped)).toEqual(
			Array(5).fill(true),
		);
		expect((await memory().summary()).sequencesCreated).toBe(5);
	}, 300_000);

	// Last: one worker is left after it.
	test('four calls at once; a worker killed mid-run; every call delivered again: at most the in-flight limit twice', async () => {
		await memory().reset();
		const events = PREFIXES.map((prefix) => names(ITEMS, prefix));
		const before = await executionIds(n8n, HOOK);
		await Promise.all(events.map((event) => postEvent(n8n, HOOK, event)));
		const running = await newExecutions(n8n, HOOK, before, PREFIXES.length);
		const victim = n8n.workers[startedBy(running).findIndex((count) => count > 0)];
		if (!victim) throw new Error('No worker started any of the executions');
		while ((await memory().summary()).sequencesCreated < 120) await sleep(200);
		await victim.kill();
		const ended = [];
		for (const id of running) ended.push(await waitForEnd(n8n, id, 240_000));
		const again = await executionIds(n8n, HOOK);
		await Promise.all(events.map((event) => postEvent(n8n, HOOK, event)));
		for (const id of await newExecutions(n8n, HOOK, again, PREFIXES.length))
			await waitForEnd(n8n, id, 240_000);
		const after = await byName(memory());
		recordFigures(
			'memory-queue',
			N8N_CURRENT,
			'four calls of 100, a worker killed, all delivered again',
			{
				firstRuns: ended.map((execution) => execution.status),
				createdTwice: twice(after.created).length,
			},
		);
		// n8n 2.x never runs a killed worker's job again: it ends in error.
		expect(ended.some((execution) => execution.status === 'error')).toBe(true);
		expect(twice(after.created).length).toBeLessThanOrEqual(MAX_IN_FLIGHT);
	}, 600_000);
});
