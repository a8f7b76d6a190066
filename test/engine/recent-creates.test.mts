// Running the workflow again creates nothing the node just created (issue 45,
// point 1), in n8n's engine, with nothing set first: a new execution started
// by hand (Execute workflow) or by a webhook does not send again a create
// this node confirmed less than 10 minutes ago with the very same request
// (run/memory/recentCreates.ts). It says so, with when, in which execution
// and the ID. What the first run did not create goes out; a changed request
// goes out; a schedule's execution creates again; so does Repeat Recent
// Creates, and so does a run past the window.
import { jest } from '@jest/globals';

import { RELEASE } from '../harness/sandbox.mts';
import { fakeDateOnly, useEnvironment } from '../harness/setup.mts';
import { runFixture, type RunOptions } from '../harness/workflows.mts';
import { failCreate, hintsOf, names, sentCounts } from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = 'sequence-create-fields';
const five: RunOptions = { items: names(5), onError: 'continueRegularOutput' };
const REASON =
	/^This node created the sequence "S\d" \d+ seconds? ago, in execution \d+, with the very same request, so it was not created again\. To create it again, turn on Request Options › Repeat Recent Creates\.$/;

const run = (options: RunOptions = five) => runFixture(env.engine, env.sandbox, FIXTURE, options);
const idsByName = async () =>
	Object.fromEntries(
		(await env.sandbox.records('sequences')).map((record) => [record.name, record.id]),
	);

test('Execute workflow twice: the second creates nothing again, and each output says when, in which execution, and which ID', async () => {
	await run();
	const second = await run();
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
	const ids = await idsByName();
	expect(second.all.map((item) => item.json)).toEqual(
		names(5).map(({ name }) => ({
			skipped: true,
			id: ids[name],
			reason: expect.stringMatching(REASON),
		})),
	);
	expect(second.all.map((item) => item.pairedItem)).toEqual(names(5).map((_, item) => ({ item })));
	expect(hintsOf(second).map((hint) => hint.message)).toContain(
		'5 items were not created again: this node created the very same ones less than 10 minutes ago (their output says when). Request Options › Repeat Recent Creates creates them again.',
	);
});

test('after a partial run, running again sends only what was not created: the create the service refused', async () => {
	await failCreate(env.sandbox, 'S3', 422, 'not now', { times: 1 });
	await run();
	const second = await run();
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 2, S4: 1, S5: 1 });
	expect(second.all.map((item) => item.json.skipped ?? item.json.name)).toEqual([
		true,
		true,
		'S3',
		true,
		true,
	]);
	expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 5, duplicateNames: 0 });
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

test("a schedule's execution creates again what it means to: its executions never skip", async () => {
	await run({ ...five, mode: 'trigger' });
	await run({ ...five, mode: 'trigger' });
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 2, S3: 2, S4: 2, S5: 2 });
});

test('Repeat Recent Creates on creates again; added at its default (off), it runs as without it', async () => {
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

test('past the window, running again creates again: 10 minutes is a re-run after a failure, not a repeat', async () => {
	await run();
	fakeDateOnly(Date.now() + 10 * 60_000 + 1000);
	try {
		await run();
	} finally {
		jest.useRealTimers();
	}
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 2, S2: 2, S3: 2, S4: 2, S5: 2 });
});

test('a webhook delivered twice at the same moment: each sequence is created once, the other execution says why it did not send', async () => {
	// Every create is held at the service until the test lets it go: both executions are under way at
	// once, however slow the machine. A run claims its creates together, before the first goes out
	// (the dispatcher's makeAhead): one sends, the other sends nothing, so it ends while those are held.
	await env.sandbox.addFault({ method: 'POST', pathPrefix: '/v1/sequences', holdUntil: RELEASE });
	const runs = [run({ ...five, mode: 'webhook' }), run({ ...five, mode: 'webhook' })];
	await Promise.race(runs);
	await env.sandbox.release();
	const [first, second] = await Promise.all(runs);
	expect(await sentCounts(env.sandbox)).toEqual({ S1: 1, S2: 1, S3: 1, S4: 1, S5: 1 });
	const notSent = [...first.all, ...second.all].filter((item) => item.json.error !== undefined);
	expect(notSent).toHaveLength(5);
	for (const item of notSent)
		expect(item.json.error).toMatch(
			/^Not sent: execution \d+ of this workflow is sending the very same request to create the sequence "S\d" right now\.$/,
		);
});
