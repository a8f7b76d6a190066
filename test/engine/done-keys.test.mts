// Request Options › Skip Items Done Before › Key: the user's own "same item"
// for the memory (run/memory/memory.ts). A key counts once the service
// confirmed it; a refused create's key is given back; two executions at once
// send a key once. What each item and hint says: test/unit/texts-re-run.test.mts.
import { processedRows } from '../harness/processed-store.mts';
import { useEnvironment } from '../harness/setup.mts';
import { factsOf, runFixture, type RunOptions } from '../harness/workflows.mts';
import { failCreate, hintsOf, names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const byName = (count: number, window = 60): RunOptions => ({
	items: names(count),
	onError: 'continueRegularOutput',
	parameters: {
		requestOptions: {
			skipDoneBefore: { keySettings: { key: '={{ $json.name }}', windowMinutes: window } },
		},
	},
});

beforeEach(async () => {
	const rows = await processedRows();
	rows.rows.clear();
	rows.latencyMs = 0;
});

test('running the workflow again: what was created is skipped, visibly; the create the service refused goes out', async () => {
	await failCreate(env.sandbox, 'S3', 422, 'not now', { times: 1 });
	const first = await runFixture(env.engine, env.sandbox, FIXTURE, byName(5));
	expect(factsOf(first.all[2])?.outcome).toBe('notActed');
	const second = await runFixture(env.engine, env.sandbox, FIXTURE, byName(5));
	expect(second.error).toBeUndefined();
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 2, S4: 1, S5: 1 });
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 5, duplicateNames: 0 });
	expect(second.all.map((item) => item.json.skipped ?? item.json.name)).toEqual([
		true,
		true,
		'S3',
		true,
		true,
	]);
	expect(second.all[0].json).toEqual({
		skipped: true,
		id: first.all[0].json.id,
		reason: expect.any(String),
	});
	expect(second.all.map((item) => item.pairedItem)).toEqual(names(5).map((_, item) => ({ item })));
	expect(hintsOf(second).map((hint) => hint.type)).toEqual(['info']);
});

test('a create the service may have carried out is not sent by the next execution without the user’s say', async () => {
	await failCreate(env.sandbox, 'S2', 500, 'late', { times: 1, afterWrite: true });
	await runFixture(env.engine, env.sandbox, FIXTURE, byName(3));
	const second = await runFixture(env.engine, env.sandbox, FIXTURE, byName(3));
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1 });
	expect(String(second.all[1].json.error)).toContain('"S2"');
	expect(factsOf(second.all[1])).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
	// The user checked: it exists. Counted as done, the key is done for the next execution too.
	const counted = await runFixture(env.engine, env.sandbox, FIXTURE, {
		...byName(3),
		parameters: {
			requestOptions: {
				skipDoneBefore: { keySettings: { key: '={{ $json.name }}', windowMinutes: 60 } },
				unconfirmedEarlierTry: 'countAsDone',
			},
		},
	});
	expect(counted.all[1].json).toMatchObject({ skipped: true });
	const fourth = await runFixture(env.engine, env.sandbox, FIXTURE, byName(3));
	expect(fourth.all.map((item) => item.json.skipped)).toEqual([true, true, true]);
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 3, duplicateNames: 0 });
});

test('a trigger delivered twice at the same moment: each sequence is created once', async () => {
	// A database round trip long enough that the second execution reads the store before the first one's write lands.
	(await processedRows()).latencyMs = 600;
	const [a, b] = await Promise.all([
		runFixture(env.engine, env.sandbox, FIXTURE, byName(6)),
		runFixture(env.engine, env.sandbox, FIXTURE, byName(6)),
	]);
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 6, duplicateNames: 0 });
	// Every item of both runs is accounted for: created, skipped, or failed unsent (another execution met its key).
	for (const item of [...a.all, ...b.all]) {
		const json = item.json;
		expect(json.name !== undefined || json.skipped === true || factsOf(item)?.timesSent === 0).toBe(
			true,
		);
	}
	const created = [...a.all, ...b.all].filter((item) => item.json.name !== undefined);
	expect(created).toHaveLength(6);
});

test('items with the same key in one run are each sent; an empty key is the request as sent; the key decides, not the request', async () => {
	const byEmail: RunOptions = {
		items: [{ name: 'S1', email: 'a' }, { name: 'S2', email: 'a' }, { name: 'S3' }],
		onError: 'continueRegularOutput',
		parameters: {
			requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.email }}' } } },
		},
	};
	await runFixture(env.engine, env.sandbox, FIXTURE, byEmail);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1 });
	const again = await runFixture(env.engine, env.sandbox, FIXTURE, {
		...byEmail,
		items: [{ name: 'S9', email: 'a' }, { name: 'S3' }, { name: 'S4' }],
	});
	expect(again.all.map((item) => item.json.skipped ?? item.json.name)).toEqual([true, true, 'S4']);
});
