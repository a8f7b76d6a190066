// An edited retry keeps what was created (issue 36), in real n8n (2.x and
// 1.x): 10 creates from a published webhook workflow, On Error = Stop; the
// service makes S4 and answers 500 each time, and answers S7's first create
// 500 before writing it. The user adds a Timezone to the node, saves
// (`PATCH /rest/workflows/<id>`, as the editor does), and retries with the
// currently saved workflow: the sequences made before are not made again,
// and S4 and S7 are not sent again on their own. Then the user sets Unconfirmed
// Earlier Try by expression (S4 counts as done, S7 is sent again), saves, and
// retries: the execution succeeds, and each sequence exists exactly once.
// Before that, in the same chain, an Unconfirmed Earlier Try expression that
// fails for S4 (issue 43): S4 fails, unsent, saying why, and the run stops
// there (On Error = Stop), sending nothing; the next retry of that retry
// still knows every item. The untagged tests are the harness's part, and pass on any build; those
// marked #36 encode the new behaviour. Figures: artifacts/e2e/re-runs-figures.json.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { RELEASE, type SandboxProcess } from '../harness/sandbox.mts';
import { sleep } from './harness/crash.mts';
import {
	getWorkflow,
	lastOutput,
	retryExecution,
	saveNode,
	waitForEnd,
} from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import {
	CREATE_NODE,
	byName,
	createsWhatTheEventLists,
	failsOnceBeforeWriting,
	figuresOf,
	names,
	postEvent,
	twice,
	warmUp,
	writtenThenFailsEachTime,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type Execution } from './harness/stage.mts';

const WORKFLOW = 'outreach-edited-retry';
const SUITE = 're-runs-edited';
const EVENT = names(10);
const TIMEZONE = 'Europe/Berlin';
/** Request Options › Unconfirmed Earlier Try, decided per item. */
const PER_ITEM = "={{ $json.name === 'S4' ? 'countAsDone' : 'sendAgain' }}";
/** The same, with a mistake that fails for S4 alone: it names a node the workflow lacks (renamed, say). */
const FAILS_FOR_S4 =
	"={{ $json.name === 'S4' ? $('Check in service').item.json.say : 'sendAgain' }}";

/** Saves Request Options › Unconfirmed Earlier Try on the node, as the editor does. */
const saveUnconfirmed = (n8n: Parameters<typeof saveNode>[0], value: string) =>
	saveNode(n8n, WORKFLOW, CREATE_NODE, (node) => {
		const options = (node.parameters?.requestOptions ?? {}) as Record<string, unknown>;
		node.parameters = {
			...node.parameters,
			requestOptions: { ...options, unconfirmedEarlierTry: value },
		};
	});

const parametersOf = (execution: Execution) =>
	execution.workflowData.nodes.find((node) => node.name === CREATE_NODE)?.parameters;

async function withFaults(sandbox: SandboxProcess): Promise<void> {
	await sandbox.reset();
	// S4's answer is held until S7 has gone out: both are under way when S4 fails, however fast the machine.
	await sandbox.addFault({ ...writtenThenFailsEachTime('S4'), holdUntil: RELEASE });
	await sandbox.addFault(failsOnceBeforeWriting('S7'));
}

describe.each(N8N_NODE_LINES)('n8n %s: an edited retry', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.reRunsEdited);
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [createsWhatTheEventLists(WORKFLOW)],
		publish: [WORKFLOW],
		ready: [`/webhook/${WORKFLOW}`],
	}));
	beforeAll(() => warmUp(n8n, sandbox(), WORKFLOW));
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	/** The executions the tests pass on: the failed one, its edited retry, and the retry of that. */
	let failed: Execution;
	let edited: Execution;
	let mistaken: Execution;
	let decided: Execution;

	test('a Timezone added and saved through PATCH /rest/workflows/<id>: Executions › Retry with loadWorkflow true runs the saved node', async () => {
		await withFaults(sandbox());
		const posted = postEvent(n8n, WORKFLOW, EVENT);
		while (!(await byName(sandbox())).sent.has('S7')) await sleep(100);
		await sandbox().release();
		await posted;
		const [newest] = await n8n.executions(WORKFLOW);
		failed = await waitForEnd(n8n, newest.id);
		expect(failed.status).toBe('error');
		const before = await getWorkflow(n8n, WORKFLOW);
		await saveNode(n8n, WORKFLOW, CREATE_NODE, (node) => {
			node.parameters = { ...node.parameters, additionalFields: { timezone: TIMEZONE } };
		});
		const saved = await getWorkflow(n8n, WORKFLOW);
		expect(saved.versionId).not.toBe(before.versionId);
		const retried = await retryExecution(n8n, WORKFLOW, failed.id, true);
		edited = await waitForEnd(n8n, retried.id);
		recordFigures(SUITE, version, 'edited retry (Timezone), currently saved workflow', {
			...figuresOf(await byName(sandbox())),
			execution: failed.status,
			retry: edited.status,
		});
		expect(edited.mode).toBe('retry');
		expect(parametersOf(edited)?.additionalFields).toEqual({ timezone: TIMEZONE });
	});

	test('#36 the edited retry makes no sequence again and sends neither S4 nor S7 again: it fails on S4', async () => {
		const after = await byName(sandbox());
		expect(after.created.get('S4')).toBe(1);
		expect({ createdTwice: twice(after.created), sentTwice: twice(after.sent) }).toEqual({
			createdTwice: [],
			sentTwice: [],
		});
		expect(edited.status).toBe('error');
	});

	test('Unconfirmed Earlier Try by an expression that fails for S4, saved: Executions › Retry of the edited retry runs it', async () => {
		await saveUnconfirmed(n8n, FAILS_FOR_S4);
		const retried = await retryExecution(n8n, WORKFLOW, edited.id, true);
		mistaken = await waitForEnd(n8n, retried.id);
		recordFigures(SUITE, version, 'then an expression that fails for S4, saved, retried', {
			...figuresOf(await byName(sandbox())),
			retry: mistaken.status,
		});
		expect(mistaken.mode).toBe('retry');
	});

	test('#43 the expression fails S4, unsent, and the run stops on it: nothing is sent', async () => {
		const after = await byName(sandbox());
		expect(mistaken.status).toBe('error');
		// It stops on S4, item 3 (its words: test/unit/re-run.test.mts, engine/re-runs.test.mts).
		expect(mistaken.data.resultData.error?.context?.itemIndex).toBe(3);
		expect({ S4: after.sent.get('S4'), S7: after.sent.get('S7') }).toEqual({ S4: 1, S7: 1 });
		expect(after.created.get('S7')).toBeUndefined();
		expect({ sentTwice: twice(after.sent), createdTwice: twice(after.created) }).toEqual({
			sentTwice: [],
			createdTwice: [],
		});
	});

	test('Unconfirmed Earlier Try set by expression and saved: Executions › Retry of the failed retry runs it', async () => {
		await saveUnconfirmed(n8n, PER_ITEM);
		// Saved as the editor saves it. (n8n drops, when it runs a node, an option the node does not declare.)
		const saved = await getWorkflow(n8n, WORKFLOW);
		const node = saved.nodes.find((candidate) => candidate.name === CREATE_NODE);
		expect(node?.parameters?.requestOptions).toEqual({ unconfirmedEarlierTry: PER_ITEM });
		const retried = await retryExecution(n8n, WORKFLOW, mistaken.id, true);
		decided = await waitForEnd(n8n, retried.id);
		recordFigures(SUITE, version, 'then Unconfirmed Earlier Try per item, saved, retried', {
			...figuresOf(await byName(sandbox())),
			retry: decided.status,
		});
		expect(decided.mode).toBe('retry');
		expect(parametersOf(decided)?.additionalFields).toEqual({ timezone: TIMEZONE });
	});

	test('#36 S4 counts as done without a request, S7 goes out again, the retry succeeds, and each sequence exists exactly once', async () => {
		const after = await byName(sandbox());
		expect(decided.status).toBe('success');
		for (const { name } of EVENT)
			expect({ name, held: after.created.get(name) }).toEqual({ name, held: 1 });
		expect(after.sent.get('S4')).toBe(1);
		// S7 went out twice in all (its first try failed before the service wrote it), this retry not at all.
		expect(after.sent.get('S7')).toBe(2);
		expect(twice(after.sent).filter((name) => name !== 'S7')).toEqual([]);
		// S7 went out from the saved node: with its Timezone.
		const s7 = (await sandbox().requests()).filter((request) => request.body.includes('"S7"'));
		expect(JSON.parse(s7.at(-1)?.body ?? '{}')).toMatchObject({ name: 'S7', timezone: TIMEZONE });

		const output = lastOutput(decided, CREATE_NODE).map((item) => item.json);
		expect(output).toHaveLength(EVENT.length);
		const s4 = after.records.get('S4');
		expect(output[3]).toMatchObject({ skipped: true, reason: expect.any(String) });
		expect([null, s4?.id]).toContain(output[3].id);
		// Every other item is the sequence the service holds: an earlier answer, or S7's new one.
		for (const [index, { name }] of EVENT.entries())
			if (name !== 'S4') expect(output[index]).toEqual(after.records.get(name));
	});
});
