// The node's one memory (run/memory/memory.ts) across executions, in n8n's
// engine against the sandbox: a new execution sends nothing the service
// confirmed within the window, in every mode but a schedule's; what was
// claimed and never confirmed fails unsent until the user says; the user's
// Key decides what is the same. Its words: test/unit/texts-re-run.test.mts.
import { jest } from '@jest/globals';
import type { INodeParameters } from 'n8n-workflow';

import { RELEASE } from '../harness/sandbox.mts';
import { processedRows } from '../harness/processed-store.mts';
import { fakeDateOnly, forgetKnown, useEnvironment } from '../harness/setup.mts';
import { factsOf, type FixtureRun, type RunOptions } from '../harness/workflows.mts';
import {
	each,
	failCreate,
	hintsOf,
	names,
	oneAtATime,
	runner,
	sentCounts,
	skipped,
	twelve,
} from './re-runs-harness.mts';

const env = useEnvironment();
const { run } = runner(env);
const HOUR = 60 * 60_000;
const five: RunOptions = { items: names(5), onError: 'continueRegularOutput' };
const options = (requestOptions: INodeParameters, more: Partial<RunOptions> = {}): RunOptions => ({
	...five,
	...more,
	parameters: { requestOptions },
});
const KEY = { skipDoneBefore: { keySettings: { key: '={{ $json.name }}' } } };
const sent = async () => await sentCounts(env.sandbox);
const unsent = (item: FixtureRun['all'][number]) =>
	expect(factsOf(item)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });

beforeEach(async () => {
	(await processedRows()).latencyMs = 0;
});

test.each([
	['in the same n8n process: with the ID it knows', false],
	['after a restart (its database kept): the ID is null', true],
])('running again creates nothing twice, %s', async (_, restart) => {
	const first = await run({ ...five, mode: 'webhook' });
	if (restart) forgetKnown();
	const again = await run({ ...five, mode: 'webhook' });
	expect(await sent()).toEqual(each(5));
	expect(again.all.map((item) => item.json)).toEqual(
		first.all.map((item) => ({
			skipped: true,
			id: restart ? null : item.json.id,
			reason: expect.any(String),
		})),
	);
	expect(again.all.map((item) => item.pairedItem)).toEqual(names(5).map((_, item) => ({ item })));
	expect(hintsOf(again).map((hint) => hint.type)).toEqual(['info']);
});

test.each([
	['the request', {}],
	['a Key', KEY],
])(
	'by %s: refused and changed creates go out again; one answered 500 after it was made fails unsent in every mode until the user says',
	async (_, by) => {
		await failCreate(env.sandbox, 'S2', 500, { times: 1, afterWrite: true });
		await failCreate(env.sandbox, 'S3', 422, { times: 1 });
		await run(options(by));
		const changed = options(by, { items: [...names(4), { name: 'S5 renamed' }] });
		const again = await run(changed);
		expect(skipped(again)).toEqual([true, undefined, 'S3', true, 'S5 renamed']);
		expect(await sent()).toEqual(each(5, 1, { S3: 2, 'S5 renamed': 1 }));
		for (const mode of ['manual', 'webhook', 'trigger'] as const)
			unsent((await run({ ...changed, mode })).all[1]);
		const counted = await run(options({ ...by, unconfirmedEarlierTry: 'countAsDone' }, changed));
		expect(counted.all[1].json.skipped).toBe(true);
		expect(skipped(await run(changed))).toEqual([true, true, true, true, true]);
		expect((await sent()).S2).toBe(1);
	},
);

test.each([
	['a schedule sends again: it means to', {}, 'trigger', 2],
	["a schedule with the user's Key skips", KEY, 'trigger', 1],
	['Repeat Items Done Before on sends again', { repeatRecentCreates: true }, 'manual', 2],
	[
		'Repeat Items Done Before added at its default (off) skips',
		{ repeatRecentCreates: false },
		'manual',
		1,
	],
	[
		'a Window of 1 minute sends again 3 minutes later',
		{ skipDoneBefore: { keySettings: { windowMinutes: 1 } } },
		'manual',
		2,
	],
] as const)('%s', async (_, given, mode, times) => {
	const now = Date.now();
	try {
		fakeDateOnly(now);
		await run(options(given, { mode }));
		fakeDateOnly(now + 3 * 60_000);
		await run(options(given, { mode }));
	} finally {
		jest.useRealTimers();
	}
	expect(await sent()).toEqual(each(5, times));
});

test('the window: an entry counts at least 60 minutes and at most 120 after the last run that met it', async () => {
	const start = Math.ceil(Date.now() / HOUR) * HOUR;
	const one = { ...five, items: names(1) };
	const at = async (ms: number) => {
		fakeDateOnly(start + ms);
		return skipped(await run(one))[0];
	};
	try {
		// Created just before an hour's end; each later run meets it a millisecond short of 60 minutes after the last.
		expect(await at(HOUR - 1000)).toBe('S1');
		expect(await at(2 * HOUR - 1001)).toBe(true);
		expect(await at(3 * HOUR - 1002)).toBe(true);
		expect(await at(5 * HOUR - 1001)).toBe('S1');
	} finally {
		jest.useRealTimers();
	}
});

test('40 identical creates are 40 creates; run again, none is sent, and a 41st goes out', async () => {
	const eight = { batching: { batch: { batchSize: 8, batchInterval: 0 } } };
	const same = (count: number) =>
		options(eight, { items: Array.from({ length: count }, () => ({ name: 'Same' })) });
	expect((await run(same(40))).all.filter((item) => item.json.skipped)).toHaveLength(0);
	const second = await run(same(40));
	expect(new Set(second.all.map((item) => item.json.skipped && item.json.id)).size).toBe(40);
	const third = await run(same(41));
	expect(third.all.filter((item) => item.json.skipped)).toHaveLength(40);
	expect(await sent()).toEqual({ Same: 41 });
});

test('by a Key: items with the same key in one run are each sent, an empty key counts by the request, and the key decides, not the request', async () => {
	const byEmail = options({ skipDoneBefore: { keySettings: { key: '={{ $json.email }}' } } });
	await run({
		...byEmail,
		items: [{ name: 'S1', email: 'a' }, { name: 'S2', email: 'a' }, { name: 'S3' }],
	});
	const again = await run({
		...byEmail,
		items: [{ name: 'S9', email: 'a' }, { name: 'S3' }, { name: 'S4' }],
	});
	expect(skipped(again)).toEqual([true, true, 'S4']);
	expect(await sent()).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1 });
});

test.each([
	// Every create held at the service, all five in flight from the first request: both under way at once.
	['a webhook', { batching: { batch: { batchSize: 5, limit: 'fixed' } } }, 'webhook'],
	// A database round trip long enough that the second reads the store before the first one's write lands.
	['a trigger with a Key', KEY, 'trigger'],
] as const)('%s delivered twice at the same moment creates each once', async (_, given, mode) => {
	const keyed = 'skipDoneBefore' in given;
	if (keyed) (await processedRows()).latencyMs = 600;
	else
		await env.sandbox.addFault({ method: 'POST', pathPrefix: '/v1/sequences', holdUntil: RELEASE });
	const runs = [run(options(given, { mode })), run(options(given, { mode }))];
	if (!keyed) {
		await env.sandbox.held(5);
		await env.sandbox.release();
	}
	const all = (await Promise.all(runs)).flatMap((result) => result.all);
	expect(await sent()).toEqual(each(5));
	// The other execution skips each, or fails it unsent.
	const notCreated = all.filter((item) => item.json.name === undefined);
	expect(notCreated).toHaveLength(5);
	for (const item of notCreated) if (item.json.skipped !== true) unsent(item);
});

test('archives are remembered too: archiving again within the window sends nothing', async () => {
	const archive: RunOptions = { items: [{ id: 'c-42' }, { id: 'c-43' }] };
	await run(archive, 'contact-archive');
	expect(skipped(await run(archive, 'contact-archive'))).toEqual([true, true]);
	expect((await env.sandbox.requests()).filter((r) => r.url.endsWith('/archive'))).toHaveLength(2);
});

test('a store that fails fails closed: the item fails unsent, and nothing is sent', async () => {
	(await processedRows()).failNext = new Error('SQLITE_BUSY: database is locked');
	const result = await run({ ...five, items: names(1) });
	expect(factsOf(result.all[0])).toMatchObject({ timesSent: 0, outcome: 'notActed' });
	expect(await sent()).toEqual({});
});

/** Runs `options` with each of n8n's store calls seen by `spy` (after it is made, the call's number from 1). */
async function runWatched(options: RunOptions, spy: (calls: number, workflowRow: string) => void) {
	const rows = await processedRows();
	const record = rows.checkProcessedAndRecord.bind(rows);
	let calls = 0;
	rows.checkProcessedAndRecord = async (items, scope, data, more) => {
		const result = await record(items, scope, data, more);
		spy(++calls, `${data.workflow.id}|${scope === 'node' ? `n:${data.node?.id}` : ''}`);
		return result;
	};
	try {
		return await run(options);
	} finally {
		rows.checkProcessedAndRecord = record;
	}
}
const ROW = 'test-workflow|n:outreach';

test("the node's own row: 3 entries per item confirmed, none for a refused one, another's entries kept, never the workflow's row", async () => {
	const rows = await processedRows();
	rows.rows.set(ROW, ['another-execution-mark']);
	const written = new Set<string>();
	await failCreate(env.sandbox, 'S3', 400);
	await runWatched(twelve, (_, row) => written.add(row));
	expect([...written]).toEqual([ROW]);
	expect(rows.rows.get(ROW)?.[0]).toBe('another-execution-mark');
	expect(rows.size).toBe(1 + 11 * 3);
});

test.each([
	['a copy read before its first write (an empty row)', 1],
	['a copy read after its first write, replacing its second', 2],
])(
	"another worker's write from %s replaces the row: the run writes again, and a re-run creates nothing twice",
	async (_, replaced) => {
		const rows = await processedRows();
		let afterFirst: string[] = [];
		// One in flight: each item's claim is a write of its own.
		const webhook = options(oneAtATime, { mode: 'webhook' });
		await runWatched(webhook, (calls) => {
			if (calls === 1 && replaced === 2) afterFirst = [...(rows.rows.get(ROW) ?? [])];
			if (calls === replaced) rows.staleWrite(ROW, afterFirst);
		});
		expect(skipped(await run(webhook))).toEqual([true, true, true, true, true]);
		expect(await sent()).toEqual(each(5));
	},
);

test('Skip Items Done Before at volume: of two executions of 1,000 keyed creates the second skips all; the row holds 3 entries a key, nothing removed', async () => {
	const rows = await processedRows();
	const keyed = options(
		{ skipDoneBefore: { keySettings: { key: '={{ $json.name }}', windowMinutes: 1440 } } },
		{ items: names(1000), withoutReaders: true },
	);
	rows.calls.length = 0;
	// Noon (UTC): far from a bucket's end.
	fakeDateOnly(new Date().setUTCHours(12, 0, 0, 0), true);
	try {
		await run(keyed);
		expect(skipped(await run(keyed)).filter((item) => item === true)).toHaveLength(1000);
	} finally {
		jest.useRealTimers();
	}
	expect(await sent()).toEqual(each(1000));
	expect([...rows.rows.values()].map((row) => row.length)).toEqual([3 * 1000 + 2]);
	expect(rows.calls.filter((call) => call.call === 'remove')).toEqual([]);
});
