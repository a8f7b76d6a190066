// The first error that stops a run (On Error = Stop) gives the way on, from
// the very first stop: it names what was created, by name and the service's
// ID. A user who follows it at once needs no retry that sends nothing, and
// what the next stop names as created never shrinks. Its words, from each
// item's end: test/unit/stop-error.test.mts.
import { useEnvironment } from '../harness/setup.mts';
import { retryFixture, runFixture, type RunOptions } from '../harness/workflows.mts';
import {
	TEN_CREATES,
	creates,
	nameOf,
	names,
	s4AndS7Fail,
	sentCounts,
} from './re-runs-harness.mts';

const env = useEnvironment();
const FIXTURE = TEN_CREATES.fixture;

describe(TEN_CREATES.title, () => {
	const ten: RunOptions = TEN_CREATES.options;
	const faults = () => s4AndS7Fail(env.sandbox);

	test('the first error names what was created, as the service holds it, and a user who follows its steps at once needs no retry first', async () => {
		await faults();
		const failed = await runFixture(env.engine, env.sandbox, FIXTURE, ten);
		expect(failed.error).toMatchObject({ context: { itemIndex: 3 } });
		const description = String((failed.error as { description?: string }).description);
		const sent = await creates(env.sandbox);
		// S4 was written, but answered 500: only the 201s are confirmed.
		const confirmed = sent.filter((request) => request.status === 201).map(nameOf);
		const sentNames = new Set(sent.map(nameOf));
		expect(names(10).filter((item) => !sentNames.has(item.name)).length).toBeGreaterThan(0);
		// Up to five of them, each by the ID the service gave it (one at a time: in input order).
		const named = [...new Set(description.match(/\bseq-[\w-]+/g))];
		expect(confirmed.length).toBeGreaterThan(0);
		expect(named).toHaveLength(Math.min(confirmed.length, 5));
		const held = await Promise.all(named.map((id) => env.sandbox.record('sequences', id)));
		expect(held.map((record) => record?.name).sort()).toEqual(confirmed.slice(0, 5).sort());
		for (const record of held) expect(description).toContain(`"${String(record?.name)}"`);
		// Followed at once: S4 counted as done; S7 goes out for the first time and fails, unwritten, and its stop says so.
		const decided = TEN_CREATES.saying({ S4: 'countAsDone', S7: 'sendAgain' });
		const next = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, failed);
		expect(next.error).toMatchObject({ context: { itemIndex: 6 } });
		// What it names as created never shrinks: S1 to S5, S4 on the user's say (by name: the service gave no answer).
		const again = String((next.error as { description?: string }).description);
		for (const { name } of names(5)) expect(again).toContain(`"${name}"`);
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, next);
		expect(retried.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 10, duplicateNames: 0 });
		expect(await sentCounts(env.sandbox)).toMatchObject({ S4: 1, S7: 2, S1: 1, S10: 1 });
	});
});
