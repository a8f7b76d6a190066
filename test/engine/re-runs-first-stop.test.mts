// The first error that stops a run (On Error = Stop) gives the way on, from
// the very first stop: what was created, by name and ID; what may have been
// and what was never sent, numbered as n8n numbers items; and the steps. A
// user who follows them at once needs no retry that sends nothing, and the
// counts of the next stop never shrink (run/outcome/stopTexts.ts).
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

	test('the first error names what was created, what may have been and what was never sent, and its steps need no retry first', async () => {
		await faults();
		const failed = await runFixture(env.engine, env.sandbox, FIXTURE, ten);
		const description = String((failed.error as { description?: string }).description);
		const sent = await creates(env.sandbox);
		// S4 was written, but answered 500: only the 201s are confirmed.
		const confirmed = sent.filter((request) => request.status === 201).map(nameOf);
		const sentNames = new Set(sent.map(nameOf));
		const unsent = names(10)
			.map((item, index) => (sentNames.has(item.name) ? -1 : index))
			.filter((index) => index >= 0);
		expect(unsent.length).toBeGreaterThan(0);
		// The steps first, then what was created: every 201, after item 3 too (docs/errors.md, On Error).
		expect(description).toMatch(
			/^To go on: check in the outreach service whether item 3 was created, set Request Options › Unconfirmed Earlier Try to Count as Done \(it was\) or Send Again \(it was not\), save, and use Executions › Retry with the currently saved workflow: nothing created is sent again\. /,
		);
		const created = description
			.split('. ')
			.find((sentence) => / sequences were created: /.test(sentence));
		expect(created).toMatch(
			new RegExp(`^${confirmed.length} of 10 sequences were created: "S1" \\(`),
		);
		const listed = [...String(created).matchAll(/"(S\d+)" \((seq-[\w-]+)\)/g)];
		expect(listed.map((match) => match[1]).sort()).toEqual(confirmed.slice(0, 5).sort());
		for (const [, name, id] of listed)
			expect(await env.sandbox.record('sequences', id)).toMatchObject({ id, name });
		expect(description).toMatch(new RegExp(`Items? ${unsent[0]}\\b[^.]* never sent\\.`));
		// The steps name item 3: it is not said again that it may have been created.
		expect(description).not.toContain('Item 3 may have been created');
		// Followed at once: S4 counted as done; S7 goes out for the first time and fails, unwritten, and its stop says so.
		const decided = TEN_CREATES.saying({ S4: 'countAsDone', S7: 'sendAgain' });
		const next = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, failed);
		expect(next.error).toMatchObject({ context: { itemIndex: 6 } });
		// Counts never shrink: what the first try created is still counted, by name.
		const again = String((next.error as { description?: string }).description);
		// S1 to S6 at least: the first try's, S4 on the user's say, and S5 and S6.
		const counted = / (\d+) of 10 sequences were created: "S1" \(/.exec(again);
		expect(Number(counted?.[1])).toBeGreaterThanOrEqual(6);
		expect(again).toMatch(/^To go on: check in the outreach service whether item 6 was created, /);
		const retried = await retryFixture(env.engine, env.sandbox, FIXTURE, decided, next);
		expect(retried.error).toBeUndefined();
		expect(await env.sandbox.summary()).toMatchObject({ sequencesCreated: 10, duplicateNames: 0 });
		expect(await sentCounts(env.sandbox)).toMatchObject({ S4: 1, S7: 2, S1: 1, S10: 1 });
	});
});
