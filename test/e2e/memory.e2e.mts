// The one memory (issue 52) in real n8n (`n8n start`, SQLite), on the paths
// where the node's earlier memories each forgot: a crash, then the sender
// delivers the same webhook again; a restart, then the same call; 40
// identical items; Execute workflow after a Stop whose item was created and
// answered 500. (A Window of 1 minute: test/engine/memory.test.mts.) Nothing is created twice, and
// after the crash the items left unknown are set against what the sandbox
// received. Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import {
	crashAndRecover,
	executionIds,
	isSkipped,
	newExecutions,
	outcomeOf,
	outputOf,
	total,
} from './harness/crash.mts';
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
	writtenThenFailsEachTime,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type N8n } from './harness/stage.mts';

const SUITE = 'memory';
const HOOK = 'outreach-memory';
const MANUAL = 'outreach-memory-manual';
const CONTINUE = { settings: { onError: 'continueRegularOutput' } };
const RATE = 10;

/** Posts the event and waits for the execution it started to end. */
async function delivered(n8n: N8n, list: Array<{ name: string }>) {
	const before = await executionIds(n8n, HOOK);
	expect((await postEvent(n8n, HOOK, list)).status).toBe(200);
	const [id] = await newExecutions(n8n, HOOK, before, 1);
	return await waitForEnd(n8n, id, 300_000);
}

describe(`n8n ${N8N_CURRENT}: one memory that outlives n8n`, () => {
	const sandbox = useSandbox(TEST_API_KEYS.memory, ['--rate-limit', String(RATE)]);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: `${SUITE}-${N8N_CURRENT}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(HOOK, CONTINUE, 'onReceived'),
			createsTheseNames(MANUAL, names(5, 'M')),
		],
		publish: [HOOK],
		ready: [`/webhook/${HOOK}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(TEST_API_KEYS.memory);
	});

	test('a crash mid-run, then the sender delivers the same webhook again: nothing is created twice; what stays unknown was in flight', async () => {
		await sandbox().reset();
		const list = names(200, 'K');
		const before = await executionIds(n8n, HOOK);
		const started = Date.now();
		expect((await postEvent(n8n, HOOK, list)).status).toBe(200);
		const running = await newExecutions(n8n, HOOK, before, 1);
		const { atKill } = await crashAndRecover(
			n8n,
			running,
			async () => Date.now() - started >= 8_000 && (await sandbox().summary()).sequencesCreated > 0,
			() => byName(sandbox()),
		);
		const again = await delivered(n8n, list);
		const after = await byName(sandbox());
		const output = outputOf(again, CREATE_NODE).map((item) => item.json);
		const unknown = list.filter((_, index) => outcomeOf(output[index]) === 'mayHaveActed');
		const neverReceived = unknown.filter(({ name }) => !atKill.sent.has(name));
		recordFigures(
			SUITE,
			N8N_CURRENT,
			'crash after 8 s, 200 creates at 10/s, the same webhook again',
			{
				createdBeforeKill: total(atKill.created),
				unknownAfter: unknown.length,
				unknownNeverReceived: neverReceived.length,
				createdTwice: twice(after.created).length,
			},
		);
		expect(twice(after.created)).toEqual([]);
		// Marked only at its turn: at most Items per Batch (32) marked without the service receiving it.
		expect(neverReceived.length).toBeLessThanOrEqual(32);
		for (const [index, item] of output.entries()) {
			const { name } = list[index];
			if (atKill.created.has(name))
				expect({
					name,
					skippedOrUnknown: isSkipped(item) || outcomeOf(item) === 'mayHaveActed',
				}).toEqual({
					name,
					skippedOrUnknown: true,
				});
		}
	}, 600_000);

	test('a restart, then the same call again: each of the 10 is skipped, with "id": null', async () => {
		await sandbox().reset();
		const list = names(10, 'R');
		await delivered(n8n, list);
		await n8n.crashMain();
		await n8n.startMain();
		const again = await delivered(n8n, list);
		expect(outputOf(again, CREATE_NODE).map((item) => [item.json.skipped, item.json.id])).toEqual(
			list.map(() => [true, null]),
		);
		expect(twice((await byName(sandbox())).created)).toEqual([]);
		expect((await sandbox().summary()).sequencesCreated).toBe(10);
	}, 300_000);

	test('40 identical items in one execution are 40 creates; the same call again sends none', async () => {
		await sandbox().reset();
		const list = Array.from({ length: 40 }, () => ({ name: 'Same' }));
		const first = await delivered(n8n, list);
		expect(outputOf(first, CREATE_NODE).filter((item) => item.json.name === 'Same')).toHaveLength(
			40,
		);
		const again = await delivered(n8n, list);
		expect(outputOf(again, CREATE_NODE).every((item) => isSkipped(item.json))).toBe(true);
		expect((await sandbox().summary()).sequencesCreated).toBe(40);
	}, 300_000);

	test('Execute workflow after a Stop whose item was created and answered 500: it is not sent again, and the run says why', async () => {
		await sandbox().reset();
		await sandbox().addFault(writtenThenFailsEachTime('M3'));
		const stopped = await runManually(n8n, MANUAL);
		expect(stopped.status).toBe('error');
		const again = await runManually(n8n, MANUAL);
		expect(again.status).toBe('error');
		expect(again.data.resultData.error?.message).toContain('"M3"');
		const after = await byName(sandbox());
		expect(after.sent.get('M3')).toBe(1);
		expect(twice(after.created)).toEqual([]);
	}, 300_000);
});
