// A crash loses no record: the journal (run/outcome/journal.ts) is in n8n's
// store for processed items as the run goes. Here the crash is what it leaves
// behind: n8n's database as it was at the moment of the kill (the store's rows,
// copied then), and an execution saved without the node's context. A retry
// (mode 'retry') then sends nothing the crashed try may have done.
import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import {
	factsOf,
	OUTREACH,
	retryFixture,
	runFixture,
	type RunOptions,
} from '../harness/workflows.mts';
import { decide, failCreate, names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const twelve: RunOptions = {
	items: names(12),
	onError: 'continueRegularOutput',
	// In batches of four (an interval makes them batches): the journal marks a batch before its first goes out.
	parameters: { requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 1 } } } },
};

/** Waits until the sandbox has received the create of `name`. */
async function received(name: string): Promise<void> {
	for (let tries = 0; tries < 200; tries++) {
		const requests = await env.sandbox.requests();
		if (requests.some((request) => request.body.includes(`"name":"${name}"`))) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error(`${name} was never sent`);
}

/** A run "killed" while S10 is in flight: what the database held then, and the execution without the node's context. */
async function crashedWhileS10IsInFlight() {
	const rows = await processedRows();
	rows.rows.clear();
	await failCreate(env.sandbox, 'S10', 400, 'late', { delayMs: 800, times: 1 });
	const running = runFixture(env.engine, env.sandbox, FIXTURE, {
		...twelve,
		onError: 'stopWorkflow',
	});
	await received('S10');
	const atTheKill = rows.snapshot();
	const run = await running;
	expect(run.error).toBeDefined();
	rows.restore(atTheKill);
	delete run.run.data.executionData?.contextData[`node:${OUTREACH}`];
	return run;
}

test('the retry of a crashed try sends nothing it sent; each item is created once or fails as carried out before', async () => {
	const crashed = await crashedWhileS10IsInFlight();
	const createdBefore = (await env.sandbox.summary()).sequencesCreated;
	const sentBefore = (await env.sandbox.requests()).length;
	const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, twelve, crashed);
	expect(retried.run.mode).toBe('retry');
	expect((await env.sandbox.requests()).length).toBe(sentBefore);
	expect(await env.sandbox.summary()).toMatchObject({
		sequencesCreated: createdBefore,
		duplicateNames: 0,
	});
	const failed = retried.all.filter((item) => item.json.error !== undefined);
	expect(failed).toHaveLength(12);
	for (const item of failed) expect(factsOf(item)?.outcome).toBe('mayHaveActed');
	const messages = failed.map((item) => String(item.json.error));
	const confirmed = (name: string) =>
		`The outreach service already created the sequence "${name}" in an earlier try of this execution that n8n could not finish (it stopped or crashed), so it was not sent again. Its answer was lost with that try, so there is no result to output.`;
	const unknown = (name: string) =>
		`The request to create the sequence "${name}" was sent in an earlier try of this execution that n8n could not finish (it stopped or crashed), and no answer came back, so the outreach service may have carried it out. It was not sent again.`;
	const nameOf = (index: number) => `S${index + 1}`;
	// The first group's confirmations went with the second group's marks; later ones wait up to a second.
	expect(messages.slice(0, 4)).toEqual([0, 1, 2, 3].map((index) => confirmed(nameOf(index))));
	messages.forEach((message, index) =>
		expect([confirmed(nameOf(index)), unknown(nameOf(index))]).toContain(message),
	);
	// Only what the crashed try created is said to be created: S10 was in flight, and the service refused it.
	expect(messages[9]).toBe(unknown('S10'));
});

test('a retry after the user checked: counted as done, or sent again, as the option says for each item', async () => {
	const crashed = await crashedWhileS10IsInFlight();
	const byName = Object.fromEntries(names(12).map(({ name }) => [name, 'countAsDone']));
	const decided = {
		...twelve,
		parameters: { ...twelve.parameters, ...decide({ ...byName, S10: 'sendAgain' }) },
	};
	const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, crashed);
	expect(retried.error).toBeUndefined();
	expect(await sentCounts(env.sandbox)).toMatchObject({ S10: 2, S1: 1, S12: 1 });
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 12, duplicateNames: 0 });
	expect(retried.all.filter((item) => item.json.skipped === true)).toHaveLength(11);
	expect(retried.all[9].json.name).toBe('S10');
});

test('every item waits until its mark is written, and under Stop nothing goes out after the failed one', async () => {
	const rows = await processedRows();
	rows.rows.clear();
	// A slow database: the first group's mark takes 200 ms to land.
	rows.latencyMs = 200;
	await failCreate(env.sandbox, 'S2', 500, 'late', { afterWrite: true, times: 1 });
	const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
		items: names(6),
		onError: 'stopWorkflow',
	});
	rows.latencyMs = 0;
	expect(run.error).toMatchObject({ context: { itemIndex: 1 } });
	const sent = (await env.sandbox.requests()).map((request) => JSON.parse(request.body).name);
	// In input order, and none after S2 once it failed (slow start sends one at a time at first).
	expect(sent).toEqual(['S1', 'S2']);
});

test('a try that ends, however it ends, takes its marks out of the store', async () => {
	const rows = await processedRows();
	rows.rows.clear();
	await failCreate(env.sandbox, 'S3', 400, 'no');
	await runFixture(env.engine, env.sandbox, FIXTURE, { ...twelve, onError: 'stopWorkflow' });
	await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
	expect(rows.size).toBe(0);
});

test("beside another execution's marks, a try that ends takes out only its own", async () => {
	const rows = await processedRows();
	rows.rows.clear();
	// Another execution of this workflow is under way: its marks are in the workflow's row.
	rows.rows.set('test-workflow|', ['another-execution-mark']);
	await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
	expect(rows.rows.get('test-workflow|')).toEqual(['another-execution-mark']);
	rows.rows.clear();
	await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
	expect(rows.size).toBe(0);
});
