// The node's one memory (run/memory/memory.ts), in n8n's engine, with nothing
// set: a new execution sends nothing the service confirmed within the window,
// in every mode but a schedule's; this process adds the ID, a restart loses
// only that; what was claimed and never confirmed fails unsent. Their words:
// test/unit/texts-re-run.test.mts.
import { jest } from '@jest/globals';

import { RELEASE } from '../harness/sandbox.mts';
import { processedRows } from '../harness/processed-store.mts';
import { fakeDateOnly, forgetKnown, useEnvironment } from '../harness/setup.mts';
import { factsOf, runFixture, type RunOptions } from '../harness/workflows.mts';
import { failCreate, hintsOf, names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const five: RunOptions = { items: names(5), onError: 'continueRegularOutput' };
const HOUR = 60 * 60_000;

const run = (options: RunOptions = five) => runFixture(env.engine, env.sandbox, FIXTURE, options);
const idsByName = async () =>
	Object.fromEntries(
		(await env.sandbox.records('sequences')).map((record) => [record.name, record.id]),
	);
const skipped = (result: Awaited<ReturnType<typeof run>>) =>
	result.all.map((item) => item.json.skipped ?? item.json.name);

test('Execute workflow twice: the second creates nothing again, and each output gives the ID this process knows', async () => {
	await run();
	const second = await run();
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
	const ids = await idsByName();
	expect(second.all.map((item) => item.json)).toEqual(
		names(5).map(({ name }) => ({ skipped: true, id: ids[name], reason: expect.any(String) })),
	);
	expect(second.all.map((item) => item.pairedItem)).toEqual(names(5).map((_, item) => ({ item })));
	expect(hintsOf(second).map((hint) => hint.type)).toEqual(['info']);
});

test('after a restart (n8n process new, its database kept), the same run again creates nothing twice; the ID is null', async () => {
	await run({ ...five, mode: 'webhook' });
	forgetKnown();
	const again = await run({ ...five, mode: 'webhook' });
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
	expect(again.all.map((item) => item.json.id)).toEqual([null, null, null, null, null]);
	expect(hintsOf(again)).toHaveLength(1);
});

test('after a partial run, running again sends only what was not created: the create the service refused', async () => {
	await failCreate(env.sandbox, 'S3', 422, 'not now', { times: 1 });
	await run();
	const second = await run();
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 2, S4: 1, S5: 1 });
	expect(skipped(second)).toEqual([true, true, 'S3', true, true]);
});

test('a create the service answered 500 after it created it: the next execution fails it unsent, in every mode, until the user says', async () => {
	await failCreate(env.sandbox, 'S2', 500, 'late', { times: 1, afterWrite: true });
	await run({ ...five, items: names(3) });
	for (const mode of ['manual', 'webhook', 'trigger'] as const) {
		const again = await run({ ...five, items: names(3), mode });
		expect(factsOf(again.all[1])).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
	}
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 1, S3: 2 });
	const counted = await run({
		...five,
		items: names(3),
		parameters: { requestOptions: { unconfirmedEarlierTry: 'countAsDone' } },
	});
	expect(counted.all[1].json.skipped).toBe(true);
	expect(skipped(await run({ ...five, items: names(3) }))).toEqual([true, true, true]);
	// The schedule's run created S1 and S3 again, as it means to; S2 exists once.
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 5 });
});

test('a webhook delivered twice creates once; a changed request is another create and goes out', async () => {
	await run({ ...five, mode: 'webhook' });
	const changed = names(5).map((item) => (item.name === 'S2' ? { name: 'S2 renamed' } : item));
	const second = await run({ ...five, items: changed, mode: 'webhook' });
	expect(await sentCounts(env.sandbox)).toEqual({
		S1: 1,
		S2: 1,
		'S2 renamed': 1,
		S3: 1,
		S4: 1,
		S5: 1,
	});
	expect(second.all[1].json.name).toBe('S2 renamed');
});

test("a schedule's execution creates again what it means to; with the user's Key it skips", async () => {
	await run({ ...five, mode: 'trigger' });
	await run({ ...five, mode: 'trigger' });
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 2, S3: 2, S4: 2, S5: 2 });
	const keyed: RunOptions = {
		...five,
		mode: 'trigger',
		parameters: {
			requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.name }}' } } },
		},
	};
	await run(keyed);
	expect(skipped(await run(keyed))).toEqual([true, true, true, true, true]);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 3, S2: 3, S3: 3, S4: 3, S5: 3 });
});

test('Repeat Items Done Before on sends again; added at its default (off), it runs as without it', async () => {
	await run();
	const repeat = (on: boolean): RunOptions => ({
		...five,
		parameters: { requestOptions: { repeatRecentCreates: on } },
	});
	await run(repeat(true));
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 2, S3: 2, S4: 2, S5: 2 });
	const off = await run(repeat(false));
	expect(off.all.every((item) => item.json.skipped === true)).toBe(true);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 2, S3: 2, S4: 2, S5: 2 });
});

test('the window: an entry counts at least 60 minutes and at most 120 after the last run that met it', async () => {
	const start = Math.ceil(Date.now() / HOUR) * HOUR;
	const at = (ms: number) => fakeDateOnly(start + ms);
	try {
		// Created just before an hour's end; each later run meets it a millisecond short of 60 minutes after the last.
		at(HOUR - 1000);
		await run({ ...five, items: names(1) });
		at(2 * HOUR - 1001);
		expect(skipped(await run({ ...five, items: names(1) }))).toEqual([true]);
		at(3 * HOUR - 1002);
		expect(skipped(await run({ ...five, items: names(1) }))).toEqual([true]);
		// More than 120 minutes after the last run that met it: sent again.
		at(5 * HOUR - 1001);
		expect(skipped(await run({ ...five, items: names(1) }))).toEqual(['S1']);
	} finally {
		jest.useRealTimers();
	}
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2 });
});

test('a Window of 1 minute set by the user: a run 3 minutes later creates again', async () => {
	const windowed: RunOptions = {
		...five,
		parameters: { requestOptions: { skipDoneBefore: { keySettings: { windowMinutes: 1 } } } },
	};
	const now = Date.now();
	try {
		fakeDateOnly(now);
		await run(windowed);
		fakeDateOnly(now + 3 * 60_000);
		await run(windowed);
	} finally {
		jest.useRealTimers();
	}
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 2, S3: 2, S4: 2, S5: 2 });
});

test('a webhook delivered twice at the same moment: each sequence is created once; the other execution skips it or fails it unsent', async () => {
	// Every create is held at the service: both executions are under way at once, however slow the machine.
	await env.sandbox.addFault({ method: 'POST', pathPrefix: '/v1/sequences', holdUntil: RELEASE });
	// Limit Fixed: each execution has all five in flight from the first request.
	const fixed: RunOptions = {
		...five,
		mode: 'webhook',
		parameters: { requestOptions: { batching: { batch: { batchSize: 5, limit: 'fixed' } } } },
	};
	const runs = [run(fixed), run(fixed)];
	await env.sandbox.held(5);
	await env.sandbox.release();
	const [first, second] = await Promise.all(runs);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
	const notCreated = [...first.all, ...second.all].filter((item) => item.json.name === undefined);
	expect(notCreated).toHaveLength(5);
	for (const item of notCreated)
		if (item.json.skipped !== true)
			expect(factsOf(item)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
});

test('archives are remembered too: archiving again within the window sends nothing', async () => {
	const archive: RunOptions = {
		items: ['c-42', 'c-43'].map((id) => ({ id })),
		onError: 'continueRegularOutput',
	};
	await runFixture(env.engine, env.sandbox, 'contact-archive', archive);
	const again = await runFixture(env.engine, env.sandbox, 'contact-archive', archive);
	expect(again.all.map((item) => item.json.skipped)).toEqual([true, true]);
	expect((await env.sandbox.requests()).filter((r) => r.url.endsWith('/archive'))).toHaveLength(2);
});

test("the store fails: every item fails unsent, with the store's reason, and nothing is sent", async () => {
	const rows = await processedRows();
	rows.failNext = new Error('SQLITE_BUSY: database is locked');
	const result = await run({ ...five, items: names(1) });
	expect(factsOf(result.all[0])).toMatchObject({ timesSent: 0, outcome: 'notActed' });
	expect(String(result.all[0].json.error)).toContain('SQLITE_BUSY');
	expect(await sentCounts(env.sandbox)).toEqual({});
});

test("another process's write from an older read replaces the row: the run writes its entries again, and a re-run creates nothing twice", async () => {
	const rows = await processedRows();
	const record = rows.checkProcessedAndRecord.bind(rows);
	let calls = 0;
	// Right after the run's first write lands, a write another worker made from an older read (an empty row) lands.
	rows.checkProcessedAndRecord = async (items, scope, data, options) => {
		const result = await record(items, scope, data, options);
		if (++calls === 1) rows.staleWrite('test-workflow|n:outreach', [], []);
		return result;
	};
	try {
		await run({ ...five, mode: 'webhook' });
	} finally {
		rows.checkProcessedAndRecord = record;
	}
	expect(skipped(await run({ ...five, mode: 'webhook' }))).toEqual([true, true, true, true, true]);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
});

test("another process's write from a read that holds the run's earlier writes, not its latest: that write is written again", async () => {
	const rows = await processedRows();
	const record = rows.checkProcessedAndRecord.bind(rows);
	const row = 'test-workflow|n:outreach';
	let calls = 0;
	let afterFirst: string[] = [];
	// One in flight: each item's claim is a write of its own. The second write is replaced by a copy read after the first.
	rows.checkProcessedAndRecord = async (items, scope, data, options) => {
		const result = await record(items, scope, data, options);
		if (++calls === 1) afterFirst = rows.snapshot().get(row) ?? [];
		if (calls === 2) rows.staleWrite(row, afterFirst, []);
		return result;
	};
	const oneAtATime = {
		...five,
		mode: 'webhook' as const,
		parameters: { requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 0 } } } },
	};
	try {
		await run(oneAtATime);
	} finally {
		rows.checkProcessedAndRecord = record;
	}
	expect(skipped(await run(oneAtATime))).toEqual([true, true, true, true, true]);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
});
