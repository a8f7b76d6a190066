// Queue mode on one n8n: main with EXECUTIONS_MODE=queue, two `n8n worker`s,
// Debian's redis-server and PostgreSQL, manual executions offloaded to the
// workers and n8n's queue timers shortened, so that a killed worker's
// executions turn `error` in seconds, not 100. The package is installed for
// main and, in their own user folders, for the workers — the step users miss.
// Each part has a service of its own, so that no pace learned in one slows
// another:
// - a webhook-triggered workflow runs on a worker and answers with the
//   sandbox's data; the MCP example's tool calls run on the workers; a burst
//   of events shared by both workers against one rate-limited service loses
//   nothing and archives nothing twice (artifacts/e2e/queue-burst.json);
// - Skip Items Done Before (issue 36): the same event delivered 12 times at
//   once runs on both workers, and each sequence is created by one delivery;
// - Executions › Retry of a failed execution runs on a worker;
// - the one memory (issue 52): Execute workflow twice on the workers creates
//   nothing the second time; and, last, four calls of 100 creates at once, a
//   worker that runs some killed mid-run, every call delivered again: at most
//   the in-flight limit are created twice (docs/re-runs.md › Limits).
// Figures: artifacts/e2e/re-runs-figures.json.
import { mkdirSync, writeFileSync } from 'node:fs';
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
import { ARTIFACTS, N8N_CURRENT, type McpToolResult } from './harness/n8n.mts';
import { burstOutcome, expectEachArchivedOnce, postBurst } from './harness/burst.mts';
import {
	CREATE_NODE,
	KEYED,
	byName,
	createsTheseNames,
	createsWhatTheEventLists,
	expectEachOnce,
	failsOnceBeforeWriting,
	figuresOf,
	names,
	onCredential,
	postEvent,
	twice,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

const WORKFLOW = path.join(here, 'workflows', 'queue-webhook.workflow.json');
const BURST_WORKFLOW = path.join(here, 'workflows', 'burst-webhook.workflow.json');
/** The burst: events at once, against a service that allows RATE per second. */
const EVENTS = 60;
const RATE = 5;
const MCP_EXAMPLE = path.join(here, '..', '..', 'examples', 'mcp-server.workflow.json');
const MCP_TOKEN = 'e2e-queue-mcp-token-5a81';
const SUITE = 'queue';
/** Skip Items Done Before: one event delivered this many times at once. */
const KEYED_HOOK = 'outreach-skip-done-before-queue';
const DELIVERIES = 12;
const EVENT = names(5, 'queue-');
/** Executions › Retry: On Error = Stop; an item whose earlier try may have acted is sent again. */
const STOP = 'outreach-rerun-stop';
/** The one memory: four calls of ITEMS creates, and Execute workflow. */
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
			WORKFLOW,
			MCP_EXAMPLE,
			BURST_WORKFLOW,
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
			// The node's words (test/unit/texts.test.mts), not n8n's: they name the use case.
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

	let answers: Item[][] = [];
	let after: ByName;

	test(`the same event delivered ${DELIVERIES} times at once: every delivery is answered, and both workers run some`, async () => {
		await keyed().reset();
		const delivered = await Promise.all(
			Array.from({ length: DELIVERIES }, () => postEvent(n8n, KEYED_HOOK, EVENT)),
		);
		after = await byName(keyed());
		const ran = (await n8n.executions(KEYED_HOOK)).slice(0, DELIVERIES).map((run) => run.id);
		const byWorker = n8n.workers.map(
			(worker) =>
				ran.filter((id) => new RegExp(`Worker started execution ${id}\\b`).test(worker.log()))
					.length,
		);
		recordFigures(
			'skip-done-before-queue',
			N8N_CURRENT,
			`webhook call delivered ${DELIVERIES} times at once`,
			{
				...figuresOf(after),
				answers: delivered.map((answer) => answer.status),
				executionsByWorker: byWorker,
			},
		);

		expect(delivered.map((answer) => answer.status)).toEqual(Array(DELIVERIES).fill(200));
		expect(byWorker.every((count) => count > 0)).toBe(true);
		expect(byWorker.reduce((sum, count) => sum + count, 0)).toBe(DELIVERIES);
		answers = delivered.map((answer) => answer.body as Item[]);
	});

	test('#36 each sequence is created once: one delivery has it, every other skipped it or failed it as not done', () => {
		expectEachOnce(after, EVENT);
		for (const [index, { name }] of EVENT.entries()) {
			const items = answers.map((answer) => answer[index]);
			const made = items.filter(
				(item) => item.skipped !== true && item.id === after.records.get(name)?.id,
			);
			expect({ name, made: made.length }).toEqual({ name, made: 1 });
			for (const item of items.filter((candidate) => !made.includes(candidate)))
				expect({
					name,
					skipped:
						item.skipped === true ||
						(item.message as { timesSent?: unknown } | undefined)?.timesSent === 0,
				}).toEqual({
					name,
					skipped: true,
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
		expect(workerLogs()).toMatch(new RegExp(`Worker started execution ${retried.id}\\b`));
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
		// A worker that runs some of them, once it has created something.
		const victim = n8n.workers.find((worker) =>
			running.some((id) => new RegExp(`Worker started execution ${id}\\b`).test(worker.log())),
		);
		if (!victim) throw new Error('No worker started any of the executions');
		while ((await memory().summary()).sequencesCreated < 120) await sleep(200);
		await victim.kill();
		const atKill = await byName(memory());
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
				createdAtKill: [...atKill.created.values()].reduce((sum, count) => sum + count, 0),
				firstRuns: ended.map((execution) => execution.status),
				createdTwice: twice(after.created).length,
			},
		);
		// n8n 2.x never runs a killed worker's job again: it ends in error.
		expect(ended.some((execution) => execution.status === 'error')).toBe(true);
		expect(twice(after.created).length).toBeLessThanOrEqual(MAX_IN_FLIGHT);
	}, 600_000);
});
