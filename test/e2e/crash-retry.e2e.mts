// A crash loses no record (issue 36), in real n8n (`n8n start`, 2.x and 1.x):
// a webhook (answering at once) starts 200 creates, default settings but On
// Error = Continue, against a service that allows 10 requests per second.
// After about 8 s n8n's process group gets SIGKILL, as a deploy, an OOM kill
// or a host restart ends it; n8n starts again on the same user folder and
// database, marks the execution crashed, and Executions › Retry runs it
// again. Nothing may be created twice: every item is created once, or fails
// as `mayHaveActed`, or, when the crashed try had seen the service confirm
// it, is output as done (`skipped`, its answer lost with the crash; issue 43).
// The first test is the harness's part (kill, restart, recovery, retry); those
// marked #36 and #43 encode the behaviour. Counts and times go to
// artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { isSkipped, outcomeOf, outcomesOf, sleep, total, untilCrashed } from './harness/crash.mts';
import { lastOutput, retryExecution, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import {
	CREATE_NODE,
	byName,
	createsWhatTheEventLists,
	figuresOf,
	names,
	postEvent,
	twice,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type Execution } from './harness/stage.mts';

const WORKFLOW = 'outreach-crash-retry';
const SUITE = 'crash-retry';
const EVENT = names(200, 'C');
const RATE = 10;
const KILL_AFTER_MS = 8_000;

describe.each(N8N_NODE_LINES)('n8n %s killed mid-run, then retried', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.crash, ['--rate-limit', String(RATE)]);
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(
				WORKFLOW,
				{ settings: { onError: 'continueRegularOutput' } },
				'onReceived',
			),
		],
		publish: [WORKFLOW],
		ready: [`/webhook/${WORKFLOW}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	let atKill: ByName;
	let retry: Execution;

	test('SIGKILL mid-run, n8n started again on the same folder and database: the execution is marked crashed, and Executions › Retry runs it to its end', async () => {
		await sandbox().reset();
		// The webhook's readiness probe ran an execution of its own: the event's is a new one.
		const before = new Set((await n8n.executions(WORKFLOW)).map((run) => run.id));
		const ours = async () =>
			(await n8n.executions(WORKFLOW)).find(
				(run) => !before.has(run.id) && run.status === 'running',
			);
		const started = Date.now();
		const answer = await postEvent(n8n, WORKFLOW, EVENT);
		expect(answer.status).toBe(200);
		let running = await ours();
		while (!running) {
			await sleep(100);
			running = await ours();
		}
		await sleep(KILL_AFTER_MS - (Date.now() - started));
		// On a slow machine, wait for the first creates, so that the kill lands mid-run.
		while ((await sandbox().summary()).sequencesCreated < RATE) await sleep(250);
		await n8n.crashMain();
		const killedAfterMs = Date.now() - started;
		atKill = await byName(sandbox());
		await n8n.startMain();
		const crashed = await untilCrashed(n8n, running.id);
		const recoveredAfterMs = Date.now() - started;
		const retried = await retryExecution(n8n, WORKFLOW, crashed.id, false);
		retry = await waitForEnd(n8n, retried.id);
		const after = await byName(sandbox());
		const output = lastOutput(retry, CREATE_NODE).map((item) => item.json);
		const failed = output.filter((item) => item.error !== undefined);
		const outcomes = outcomesOf(output);
		recordFigures(SUITE, version, `crash: ${EVENT.length} creates at ${RATE}/s, SIGKILL, retry`, {
			createdBeforeKill: total(atKill.created),
			sentBeforeKill: total(atKill.sent),
			...figuresOf(after),
			retry: retry.status,
			failedItems: failed.length,
			failedByOutcome: outcomes,
			killedAfterMs,
			recoveredAfterMs,
			retryEndedAfterMs: Date.now() - started,
		});

		expect(total(atKill.created)).toBeGreaterThan(0);
		expect(total(atKill.created)).toBeLessThan(EVENT.length);
		expect(retry).toMatchObject({ mode: 'retry', retryOf: crashed.id });
		expect(output).toHaveLength(EVENT.length);
	});

	test('#36 #43 nothing is created twice: every item is created once, output as done by the crash, or fails as mayHaveActed', async () => {
		const after = await byName(sandbox());
		const output = lastOutput(retry, CREATE_NODE).map((item) => item.json);
		expect(twice(after.created)).toEqual([]);
		for (const [index, { name }] of EVENT.entries()) {
			const item = output[index];
			if (isSkipped(item))
				expect({ name, item, before: atKill.created.get(name) }).toEqual({
					name,
					item: { skipped: true, id: null, reason: expect.any(String) },
					before: 1,
				});
			else if (item.error === undefined) expect(item).toEqual(after.records.get(name));
			else expect({ name, outcome: outcomeOf(item) }).toEqual({ name, outcome: 'mayHaveActed' });
		}
		// What the crashed try created is not created again: it is output as done, or fails as mayHaveActed.
		for (const name of atKill.created.keys()) {
			const item = output[EVENT.findIndex((candidate) => candidate.name === name)];
			expect({ name, settled: isSkipped(item) || outcomeOf(item) === 'mayHaveActed' }).toEqual({
				name,
				settled: true,
			});
		}
	});

	test('#43 what the crashed try confirmed is output as done, not failed: the retry fails only the unknown items', () => {
		const output = lastOutput(retry, CREATE_NODE).map((item) => item.json);
		expect(output.filter(isSkipped).length).toBeGreaterThan(0);
		expect(output.filter((item) => item.error !== undefined).length).toBeLessThan(
			total(atKill.created),
		);
	});
});
