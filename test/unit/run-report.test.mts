// What slowed a run down, summed up with how its items ended: the report the
// hints are written from, as its own calls fill it and as the run loop does
// (the scripted service on a virtual clock of loop-helpers.mts).
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { limited, run, status } from './loop-helpers.mts';

const ok = undefined;

test('waits, push-backs and retried items, each item once; the in-flight limit and answer times', () => {
	const report = new RunReport();
	for (const ms of [1000, 0, 2500]) report.waited(ms);
	report.pushedBack();
	report.pushedBack();
	report.retrying(1, 'pushedBack');
	report.retrying(1, 'transient');
	report.retrying(2, 'pushedBack');
	report.heldBack(3000);
	report.breakerOpened(2);
	report.answered(100, 400);
	report.answered(150, 350);
	report.limitFull(120, 8);
	report.limitFull(80, 16);
	expect(report.summarize([ok, ok])).toMatchObject({
		items: 2,
		pushBacks: 2,
		waitedRequests: 2,
		longestWaitMs: 2500,
		heldBackMs: 3000,
		retriedItems: 2,
		transientRetried: 1,
		breakerOpened: 2,
		limit: { runMs: 300, fullMs: 200, heldAt: 16, quickestAnswerMs: 200, meanAnswerMs: 250 },
	});
});

test('the failed items by group, those the service may have acted on apart, the first of each by its name', () => {
	const ends = [
		ok,
		'notActed',
		'mayHaveActed',
		'n8nRefused',
		'mayHaveActed',
		'serviceDown',
	] as const;
	const summary = new RunReport().summarize([...ends], ['S0', undefined, 'S2', 'S3', 'S4', 'S5']);
	expect(summary.failed).toEqual({ notActed: 1, mayHaveActed: 2, n8nRefused: 1, serviceDown: 1 });
	// Item 1 has no name (its request was never made), so the first of its kind goes unnamed.
	expect(summary.failedItems).toEqual({
		mayHave: [2, 4],
		notActed: [1, 3, 5],
		labels: { 2: 'S2' },
	});
});

test('what came of items an earlier try or execution handled: by event, with the IDs of those kept', () => {
	const report = new RunReport();
	const events = [
		['answered', 'seq-1'],
		['kept', 'seq-3'],
		['kept', 4],
		['kept', undefined],
		['failedAgain'],
		['doneBefore', 'seq-9'],
		['doneBefore', null],
	] as const;
	for (const [event, id] of events) report.earlierTry(event, id);
	const summary = report.summarize([ok]);
	expect(summary.earlierTry).toMatchObject({
		answered: 1,
		kept: 3,
		failedAgain: 1,
		doneBefore: 2,
		sentAgain: 0,
	});
	expect([summary.keptIds, summary.doneBeforeWithoutId]).toEqual([['seq-3', '4'], 1]);
});

test.each([
	['a clean run', 4, {}, {}, { pushBacks: 0, waitedRequests: 0, heldBackMs: 0, retriedItems: 0 }],
	[
		'a 429 asking for 2 s: the item sent again, the others held back',
		3,
		{ '/v1/items/1': [limited('2')] },
		{},
		{ pushBacks: 1, retriedItems: 1, longestWaitMs: 2000 },
	],
	[
		'retries used up',
		2,
		{ '/v1/items/0': [limited('1'), limited('1')] },
		{ policy: { enabled: true, maxRetries: 1, maxWaitMs: 60_000 } },
		{ pushBacks: 2, retriedItems: 1, notSentAgain: { exhausted: 1 } },
	],
	[
		'a 429 asking longer than Max Wait',
		1,
		{ '/v1/items/0': [limited('120')] },
		{},
		{ pushBacks: 1, retriedItems: 0, notSentAgain: { waitTooLong: 1 } },
	],
	[
		'a 502 to a create: no push-back, not sent again',
		1,
		{ '/v1/items/0': [status(502)] },
		{},
		{ pushBacks: 0, retriedItems: 0, waitedRequests: 0 },
	],
])('the run loop reports %s', async (_, items, script, settings, expected) => {
	const { loop } = await run(items, { script, settings });
	expect(loop.report.summarize(loop.items.map(() => ok))).toMatchObject(expected);
});
