// Nothing twice when n8n runs the node again, in real n8n (2.x and 1.x; on a
// queue-mode worker: queue.e2e.mts): a published webhook workflow creates the sequences an event
// lists. With Retry On Fail, a create that failed once before the service
// wrote it is sent again and nothing else is. Under Stop, the error says what
// was created, and Executions › Retry (the REST call the Executions list
// makes, with either loadWorkflow) creates each sequence exactly once. A 500
// on a create may have acted, so each workflow's Request Options › Unconfirmed
// Earlier Try says to send such an item again (issue 36; a build without the
// option ignores it): the user's choice once they know it was not created.
import { TEST_API_KEYS } from '../harness/keys.mts';
import type { SandboxProcess } from '../harness/sandbox.mts';
import { retryExecution } from './harness/editor-rest.mts';
import { N8N_CURRENT, N8N_MAINTAINED } from './harness/n8n.mts';
import {
	createsWhatTheEventLists,
	failsOnceBeforeWriting,
	nameOf,
	names,
	postEvent,
} from './harness/re-runs.mts';
import { useN8n, useSandbox, type N8n } from './harness/stage.mts';

const STOP = 'outreach-rerun-stop';
const RETRY_ON_FAIL = 'outreach-rerun-retry-on-fail';
/**
 * Items whose earlier try may have acted are sent again. The tests post the same event again and
 * again: Repeat Recent Creates lets each new execution create what an earlier test's did.
 */
const SEND_AGAIN = { unconfirmedEarlierTry: 'sendAgain', repeatRecentCreates: true };

const post = (n8n: N8n, path: string, count: number) => postEvent(n8n, path, names(count));

/** The sandbox holds each name once, and the sequences it holds are the ones listed. */
async function expectEachCreatedOnce(sandbox: SandboxProcess, count: number): Promise<void> {
	expect(await sandbox.summary()).toMatchObject({ sequencesCreated: count, duplicateNames: 0 });
	const created = (await sandbox.requests())
		.filter((request) => request.status === 201)
		.map(nameOf);
	expect(created.sort()).toEqual(
		names(count)
			.map((item) => item.name)
			.sort(),
	);
}

/** Under Stop, the 24th of 40 creates fails once before it is written; the execution fails. */
async function failedExecution(n8n: N8n, sandbox: SandboxProcess): Promise<string> {
	await sandbox.reset();
	await sandbox.addFault(failsOnceBeforeWriting('S24'));
	const answer = await post(n8n, STOP, 40);
	expect(answer.status).not.toBe(200);
	const [latest] = await n8n.executions(STOP);
	expect(latest.status).toBe('error');
	return latest.id;
}

/** Executions › Retry, as the Executions list calls it; then the retry, which ran to its end. */
const retry = (n8n: N8n, id: string, loadWorkflow: boolean) =>
	retryExecution(n8n, STOP, id, loadWorkflow);

function suite(version: string) {
	const sandbox = useSandbox(TEST_API_KEYS.reRuns);
	const n8n = useN8n(() => ({
		version,
		name: `re-runs-${version}`,
		run: 'server',
		sandbox: sandbox(),
		workflows: [
			createsWhatTheEventLists(STOP, { requestOptions: SEND_AGAIN }),
			createsWhatTheEventLists(RETRY_ON_FAIL, {
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 },
				requestOptions: SEND_AGAIN,
			}),
		],
		publish: [STOP, RETRY_ON_FAIL],
		ready: [`/webhook/${STOP}`, `/webhook/${RETRY_ON_FAIL}`],
	}));
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	return { n8n, sandbox };
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s: n8n runs the node again', (version) => {
	const { n8n, sandbox } = suite(version);

	test('Retry On Fail: a create that failed once before it was written goes out again, and nothing else; the answer is every sequence, once', async () => {
		await sandbox().reset();
		await sandbox().addFault(failsOnceBeforeWriting('S7'));
		const answer = await post(n8n, RETRY_ON_FAIL, 24);
		expect(answer.status).toBe(200);
		await expectEachCreatedOnce(sandbox(), 24);
		const sent = (await sandbox().requests()).map(nameOf);
		expect(sent.filter((name) => name === 'S7')).toHaveLength(2);
		expect(sent).toHaveLength(25);
		// The output is the service's answers, as a clean run would give them: each the sequence it holds.
		const output = answer.body as Array<{ id: string; name: string }>;
		expect(output.map((sequence) => sequence.name)).toEqual(names(24).map((item) => item.name));
		for (const sequence of output)
			expect(await sandbox().record('sequences', sequence.id)).toEqual(sequence);
	});

	test('Stop: the error stops on item 23 and names a few of the sequences created, each as the sandbox holds it', async () => {
		const id = await failedExecution(n8n, sandbox());
		const { data } = await n8n.execution(id);
		const created = (await sandbox().summary()).sequencesCreated;
		expect(data.resultData.error?.context?.itemIndex).toBe(23);
		// Its words, from each item's end: test/unit/stop-error.test.mts.
		const description = String(data.resultData.error?.description);
		const named = [...new Set(description.match(/\bseq-[\w-]+/g))];
		expect(named).toHaveLength(Math.min(5, created));
		for (const sequence of named)
			expect(await sandbox().record('sequences', sequence)).toMatchObject({ id: sequence });
	});

	test.each([false, true])(
		'Executions › Retry with loadWorkflow %s: the retry succeeds, and each sequence exists exactly once',
		async (loadWorkflow) => {
			const id = await failedExecution(n8n, sandbox());
			const retried = await retry(n8n, id, loadWorkflow);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry' });
			await expectEachCreatedOnce(sandbox(), 40);
			// Only the item that failed went out twice: the record answered the rest.
			const sent = (await sandbox().requests()).map(nameOf);
			expect(sent.filter((name) => name === 'S24')).toHaveLength(2);
			expect(sent).toHaveLength(41);
			expect(new Set(sent).size).toBe(40);
		},
	);
});
