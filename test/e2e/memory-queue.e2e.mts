// The one memory (issue 52) in queue mode, in real n8n 2.x: main, two workers,
// Redis and PostgreSQL, n8n's queue timers shortened so that a killed
// worker's executions turn `error` in seconds, not 100. Four webhook calls of
// 100 creates at once; a worker that runs some is killed mid-run; once n8n
// marks its executions failed, the sender delivers every call again: only the
// marks of the killed worker's last write can be lost (docs/re-runs.md ›
// Limits): at most the in-flight limit are created twice, against the 60 or
// so it created before. And Execute workflow twice with manual executions offloaded
// to the workers (n8n 3.0's only way): the second creates nothing.
import { MAX_IN_FLIGHT } from '../../nodes/OutreachSequences/helpers/defaults.ts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import { major } from '../../scripts/n8n/versions.mts';
import { executionIds, newExecutions, outputOf, sleep } from './harness/crash.mts';
import { runManually, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_CURRENT } from './harness/n8n.mts';
import {
	CREATE_NODE,
	byName,
	createsTheseNames,
	createsWhatTheEventLists,
	names,
	postEvent,
	twice,
} from './harness/re-runs.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const SUITE = 'memory-queue';
const HOOK = 'outreach-memory-queue';
const MANUAL = 'outreach-memory-queue-manual';
const PREFIXES = ['P', 'Q', 'R', 'S'];
const ITEMS = 100;

describe(`n8n ${N8N_CURRENT} in queue mode: one memory across workers`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.memoryQueue, ['--rate-limit', '40']);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: SUITE,
		run: 'queue',
		workers: 2,
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(
				HOOK,
				{ settings: { onError: 'continueRegularOutput' } },
				'onReceived',
			),
			createsTheseNames(MANUAL, names(5, 'M')),
		],
		publish: [HOOK],
		ready: [`/webhook/${HOOK}`],
		env: {
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			QUEUE_WORKER_LOCK_DURATION: '4000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
			QUEUE_WORKER_STALLED_INTERVAL: '4000',
		},
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.memoryQueue);
	});

	test('Execute workflow twice, run on the workers: the second creates nothing', async () => {
		await sandbox().reset();
		const first = await runManually(n8n, MANUAL);
		const second = await runManually(n8n, MANUAL);
		expect([first.status, second.status]).toEqual(['success', 'success']);
		expect(outputOf(second, CREATE_NODE).map((item) => item.json.skipped)).toEqual(
			Array(5).fill(true),
		);
		expect((await sandbox().summary()).sequencesCreated).toBe(5);
	}, 300_000);

	test('four calls at once; a worker killed mid-run; every call delivered again: at most the in-flight limit twice', async () => {
		await sandbox().reset();
		const events = PREFIXES.map((prefix) => names(ITEMS, prefix));
		const before = await executionIds(n8n, HOOK);
		await Promise.all(events.map((event) => postEvent(n8n, HOOK, event)));
		const running = await newExecutions(n8n, HOOK, before, PREFIXES.length);
		// A worker that runs some of them, once it has created something.
		const victim = n8n.workers.find((worker) =>
			running.some((id) => new RegExp(`Worker started execution ${id}\\b`).test(worker.log())),
		);
		if (!victim) throw new Error('No worker started any of the executions');
		while ((await sandbox().summary()).sequencesCreated < 120) await sleep(200);
		await victim.kill();
		const atKill = await byName(sandbox());
		const ended = [];
		for (const id of running) ended.push(await waitForEnd(n8n, id, 240_000));
		const again = await executionIds(n8n, HOOK);
		await Promise.all(events.map((event) => postEvent(n8n, HOOK, event)));
		for (const id of await newExecutions(n8n, HOOK, again, PREFIXES.length))
			await waitForEnd(n8n, id, 240_000);
		const after = await byName(sandbox());
		recordFigures(SUITE, N8N_CURRENT, 'four calls of 100, a worker killed, all delivered again', {
			createdAtKill: [...atKill.created.values()].reduce((sum, count) => sum + count, 0),
			firstRuns: ended.map((execution) => execution.status),
			createdTwice: twice(after.created).length,
		});
		// n8n 2.x never runs a killed worker's job again (it ends in error); 1.x's queue runs it again on another worker.
		if (major(N8N_CURRENT) >= 2)
			expect(ended.some((execution) => execution.status === 'error')).toBe(true);
		expect(twice(after.created).length).toBeLessThanOrEqual(MAX_IN_FLIGHT);
	}, 600_000);
});
