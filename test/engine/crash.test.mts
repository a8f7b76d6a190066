// A crash loses nothing the service confirmed: the memory (run/memory/memory.ts)
// is in n8n's store for processed items as the run goes. Here the crash is what it leaves
// behind: n8n's database as it was at the moment of the kill (the store's rows,
// copied then), and an execution saved without the node's context. A retry
// (mode 'retry') then sends nothing the crashed try may have done. What each
// item says: test/unit/texts-stop.test.mts, item-error.test.mts.
import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import { factsOf, retryFixture, runFixture } from '../harness/workflows.mts';
import { crashedWhileS10IsInFlight, FIXTURE, twelve } from './crash-harness.mts';
import { creates, decide, failCreate, nameOf, names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
test('the retry of a crashed try sends nothing it sent; what it confirmed is output as done, the rest fails as unknown', async () => {
	const crashed = await crashedWhileS10IsInFlight(env);
	const createdBefore = (await env.sandbox.summary()).sequencesCreated;
	const sentBefore = (await env.sandbox.requests()).length;
	const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, twelve, crashed);
	expect(retried.run.mode).toBe('retry');
	expect((await env.sandbox.requests()).length).toBe(sentBefore);
	expect(await env.sandbox.summary()).toMatchObject({
		sequencesCreated: createdBefore,
		duplicateNames: 0,
	});
	// What the service created: every sequence its 201s made, by name.
	const created = new Set((await creates(env.sandbox)).filter((r) => r.status === 201).map(nameOf));
	const skipped = retried.all.filter((item) => item.json.skipped === true);
	// The first batch's confirmations went with the second batch's claims; later ones wait up to a second.
	expect(retried.all.slice(0, 4).every((item) => item.json.skipped === true)).toBe(true);
	retried.all.forEach((item, index) => {
		const name = `S${index + 1}`;
		// Output as done, without its answer, only what the service created; the rest fails unsent, named, as unknown.
		if (item.json.skipped === true) {
			expect({ name, json: item.json }).toEqual({
				name,
				json: { skipped: true, id: null, reason: expect.any(String) },
			});
			expect(created.has(name)).toBe(true);
		} else {
			expect(item.json.error).toContain(`"${name}"`);
			expect(factsOf(item)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
		}
	});
	// S10 was in flight, and the service refused it: it is not output as done.
	expect(retried.all[9].json.skipped).toBeUndefined();
	expect(created.has('S10')).toBe(false);
	expect(skipped.length).toBeGreaterThanOrEqual(4);
});

test('a retry after the user checked: counted as done, or sent again, as the option says for each item', async () => {
	const crashed = await crashedWhileS10IsInFlight(env);
	const byName = Object.fromEntries(names(12).map(({ name }) => [name, 'countAsDone']));
	// Send Again said for every item: only those whose outcome is unknown go out again.
	const decided = {
		...twelve,
		parameters: {
			...twelve.parameters,
			...decide({ ...byName, S1: 'sendAgain', S10: 'sendAgain' }),
		},
	};
	const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, crashed);
	expect(retried.error).toBeUndefined();
	// S1 was confirmed in the crashed try: Send Again does not apply to it.
	expect(await sentCounts(env.sandbox)).toMatchObject({ S10: 2, S1: 1, S12: 1 });
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 12, duplicateNames: 0 });
	expect(retried.all.filter((item) => item.json.skipped === true)).toHaveLength(11);
	expect(retried.all[9].json.name).toBe('S10');
});

test('every item waits until its claim is written, and under Stop nothing goes out after the failed one', async () => {
	const rows = await processedRows();
	rows.rows.clear();
	// A slow database: each claim takes 200 ms to land.
	rows.latencyMs = 200;
	await failCreate(env.sandbox, 'S2', 500, 'late', { afterWrite: true, times: 1 });
	// One request at a time (Items per Batch 1), so that S3 would go only after S2's answer.
	const run = await runFixture(env.engine, env.sandbox, FIXTURE, {
		items: names(6),
		onError: 'stopWorkflow',
		parameters: { requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 0 } } } },
	});
	rows.latencyMs = 0;
	expect(run.error).toMatchObject({ context: { itemIndex: 1 } });
	const sent = (await env.sandbox.requests()).map((request) => JSON.parse(request.body).name);
	// In input order, and none after S2 once it failed.
	expect(sent).toEqual(['S1', 'S2']);
});

test('a run costs the row 3 entries per item the service confirmed, and none for one it refused', async () => {
	const rows = await processedRows();
	rows.rows.clear();
	await failCreate(env.sandbox, 'S3', 400, 'no');
	await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
	expect(rows.size).toBe(11 * 3);
});

test("another execution's entries in the node's row stay as they are", async () => {
	const rows = await processedRows();
	rows.rows.clear();
	const row = 'test-workflow|n:outreach';
	rows.rows.set(row, ['another-execution-mark']);
	await failCreate(env.sandbox, 'S3', 400, 'no');
	await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
	expect(rows.rows.get(row)?.[0]).toBe('another-execution-mark');
});

test("the memory is written in the node's own row, never in the workflow's row that Remove Duplicates uses", async () => {
	const rows = await processedRows();
	rows.rows.clear();
	const written = new Set<string>();
	const record = rows.checkProcessedAndRecord.bind(rows);
	rows.checkProcessedAndRecord = async (items, scope, data, options) => {
		written.add(`${data.workflow.id}|${scope === 'node' ? `n:${data.node?.id}` : ''}`);
		return await record(items, scope, data, options);
	};
	try {
		await runFixture(env.engine, env.sandbox, FIXTURE, twelve);
	} finally {
		rows.checkProcessedAndRecord = record;
	}
	expect([...written]).toEqual(['test-workflow|n:outreach']);
});
