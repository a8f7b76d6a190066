// An unknown outcome is not sent again on its own (issue 36), in real n8n
// (2.x and 1.x): 10 creates from a published webhook workflow, On Error =
// Stop. The service carries out S4's create and then answers 500, each time
// it is sent; it answers S7's first create 500 before writing it. Neither can
// the node tell apart: both may have acted. Retry On Fail (3 tries) and
// Executions › Retry (either loadWorkflow) then send neither again, and each
// sequence exists at most once. Tests marked #36 encode the new behaviour;
// every scenario's figures go to artifacts/e2e/re-runs-figures.json first.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { errorText, retryExecution, waitForEnd } from './harness/editor-rest.mts';
import { recordFigures } from './harness/figures.mts';
import { N8N_NODE_LINES } from './harness/n8n.mts';
import {
	byName,
	createsWhatTheEventLists,
	failsOnceBeforeWriting,
	figuresOf,
	names,
	postEvent,
	twice,
	warmUp,
	writtenThenFailsEachTime,
	type ByName,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type N8n } from './harness/stage.mts';
import type { SandboxProcess } from '../harness/sandbox.mts';

const STOP = 'outreach-unknown-stop';
const RETRY_ON_FAIL = 'outreach-unknown-retry-on-fail';
/** Retry On Fail under Continue, with an Unconfirmed Earlier Try whose expression fails for S1 alone. */
const EXPRESSION_FAILS = 'outreach-unknown-expression-fails';
const SUITE = 're-runs-unknown';
const EVENT = names(10);
/** Written, then answered 500, on every send. */
const WRITTEN = 'S4';
/** Answered 500 before it is written, once. */
const NOT_WRITTEN = 'S7';

/** The sandbox fresh, with S4's and S7's faults. */
async function withFaults(sandbox: SandboxProcess): Promise<void> {
	await sandbox.reset();
	await sandbox.addFault(writtenThenFailsEachTime(WRITTEN));
	await sandbox.addFault(failsOnceBeforeWriting(NOT_WRITTEN));
}

/** The execution a webhook call made, once it has ended. */
async function latest(n8n: N8n, workflowId: string) {
	const [newest] = await n8n.executions(workflowId);
	return await waitForEnd(n8n, newest.id);
}

/**
 * What #36 promises after any of these re-runs: S4, which the service made,
 * exists once; no name is created twice, and none is sent twice, because
 * every failure here may have acted. (Under Stop, how many items after S4 go
 * out before it fails depends on the pace: the names are not all sent.)
 */
function expectNothingSentAgain(after: ByName): void {
	expect(after.created.get(WRITTEN)).toBe(1);
	expect({ createdTwice: twice(after.created), sentTwice: twice(after.sent) }).toEqual({
		createdTwice: [],
		sentTwice: [],
	});
}

describe.each(N8N_NODE_LINES)('n8n %s: an unknown outcome on a re-run', (version) => {
	const sandbox = useSandbox(TEST_API_KEYS.reRunsUnknown);
	const n8n = useN8n(() => ({
		version,
		name: `${SUITE}-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(STOP),
			createsWhatTheEventLists(RETRY_ON_FAIL, {
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 },
			}),
			createsWhatTheEventLists(EXPRESSION_FAILS, {
				settings: {
					onError: 'continueRegularOutput',
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 100,
				},
				requestOptions: {
					// For S1 the expression fails: it names a node the workflow lacks.
					unconfirmedEarlierTry:
						"={{ $json.name === 'S1' ? $('No Such Node').item.json.say : 'sendAgain' }}",
				},
			}),
		],
		publish: [STOP, RETRY_ON_FAIL, EXPRESSION_FAILS],
		ready: [`/webhook/${STOP}`, `/webhook/${RETRY_ON_FAIL}`, `/webhook/${EXPRESSION_FAILS}`],
	}));
	beforeAll(() => warmUp(n8n, sandbox(), STOP));
	// Each test starts with n8n's memory empty: each runs the same event as a first delivery.
	beforeEach(async () => await n8n.forgetMemory());

	/** The event through the workflow's webhook; its answer, its execution once ended, and what the sandbox holds, its figures recorded first. */
	async function webhookRun(workflowId: string, scenario: string) {
		const answer = await postEvent(n8n, workflowId, EVENT);
		const execution = await latest(n8n, workflowId);
		const after = await byName(sandbox());
		recordFigures(SUITE, version, scenario, {
			...figuresOf(after),
			answer: answer.status,
			execution: execution.status,
		});
		return { answer, execution, after };
	}
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});

	test('#36 Retry On Fail (3 tries): neither S4 nor S7 goes out again; the execution fails; each sequence exists at most once', async () => {
		await withFaults(sandbox());
		const { execution, after } = await webhookRun(RETRY_ON_FAIL, 'Retry On Fail (3 tries)');

		expect(execution.status).toBe('error');
		expectNothingSentAgain(after);
	});

	test.each([false, true])(
		'#36 Executions › Retry with loadWorkflow %s: neither S4 nor S7 goes out again, and S4 fails with the earlier failure’s words',
		async (loadWorkflow) => {
			await withFaults(sandbox());
			await postEvent(n8n, STOP, EVENT);
			const failed = await latest(n8n, STOP);
			// The harness's part: the execution failed, and its retry is listed as one.
			expect(failed.status).toBe('error');
			const retried = await retryExecution(n8n, STOP, failed.id, loadWorkflow);
			expect(retried.mode).toBe('retry');
			const retry = await waitForEnd(n8n, retried.id);
			const after = await byName(sandbox());
			recordFigures(
				SUITE,
				version,
				`Executions › Retry, ${loadWorkflow ? 'currently saved' : 'original'} workflow, unchanged`,
				{ ...figuresOf(after), execution: failed.status, retry: retry.status },
			);

			expectNothingSentAgain(after);
			expect(retry.status).toBe('error');
			expect(errorText(retry)).toContain(failed.data.resultData.error?.message ?? '—');
		},
	);

	test('#43 an Unconfirmed Earlier Try whose expression fails for one item, mid-run: that item alone fails, unsent; every other send is kept, and nothing is created twice', async () => {
		await sandbox().reset();
		// S1 (the first item, so that Retry On Fail runs the node again) is made, then answered 500; S4 is answered 500 before it is made.
		await sandbox().addFault(writtenThenFailsEachTime('S1'));
		await sandbox().addFault(failsOnceBeforeWriting('S4'));
		const { answer, execution, after } = await webhookRun(
			EXPRESSION_FAILS,
			'Retry On Fail, an expression that fails for one item',
		);

		expect([answer.status, execution.status]).toEqual([200, 'success']);
		const items = answer.body as Array<{ name?: string; error?: string; message?: object }>;
		expect(items).toHaveLength(EVENT.length);
		// S1 failed, unsent this time, though the service may have made it (its words, which give n8n's
		// reason for the expression: test/unit/re-run.test.mts, engine/re-runs.test.mts).
		expect(items[0]).toMatchObject({
			error: expect.any(String),
			message: { timesSent: 0, outcome: 'mayHaveActed' },
		});
		expect(items.slice(1).map((item) => item.name)).toEqual(
			EVENT.slice(1).map((item) => item.name),
		);
		// S1 went out once (the expression kept it back), S4 twice (its say was sendAgain), the rest once.
		expect(Object.fromEntries(after.sent)).toEqual(
			Object.fromEntries(EVENT.map(({ name }) => [name, name === 'S4' ? 2 : 1])),
		);
		expect(twice(after.created)).toEqual([]);
		expect(after.created.size).toBe(EVENT.length);
	});
});
