// What slowed a run down, summed up with how its items ended: the report the
// hints are written from, as its own calls fill it and as the run loop does
// (the scripted service on a virtual clock of loop-helpers.mts).
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import type { Scripted } from './loop-helpers.mts';
import { run } from './loop-helpers.mts';

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

test('what came of items an earlier try or execution handled, by event, with the IDs of those kept; how each item ended, and its name', () => {
	const report = new RunReport();
	report.earlierTry('answered', 'seq-1');
	report.earlierTry('failedAgain');
	for (const id of ['seq-3', 4, undefined]) report.earlierTry('kept', id);
	const summary = report.summarize([ok, 'mayHaveActed'], ['S0', 'S1']);
	expect(summary.earlierTry).toEqual({ answered: 1, kept: 3, failedAgain: 1 });
	expect(summary.keptIds).toEqual(['seq-3', '4']);
	expect([summary.items, summary.ends, summary.labels]).toEqual([
		2,
		[ok, 'mayHaveActed'],
		['S0', 'S1'],
	]);
});

const policy = { enabled: true, maxRetries: 1, maxWaitMs: 60_000 };
const limited = (retryAfter: string): Scripted => ({ status: 429, retryAfter });
const answers: (first: Scripted[]) => (index: number, sends: number) => Scripted =
	(first) => (index, sends) => (index === 0 ? (first[sends] ?? 200) : 200);
test.each([
	['a clean run', [], 0, { pushBacks: 0, waitedRequests: 0, heldBackMs: 0, retriedItems: 0 }],
	['a 429 asking 2 s: sent again, the rest held back', [limited('2')], 2000, { retriedItems: 1 }],
	[
		'retries used up',
		[limited('1'), limited('1')],
		1000,
		{ pushBacks: 2, notSentAgain: { exhausted: 1 } },
	],
	['a wait past Max Wait', [limited('120')], 0, { pushBacks: 1, notSentAgain: { waitTooLong: 1 } }],
	['a 502 to a create: no push-back, not again', [502], 0, { pushBacks: 0, retriedItems: 0 }],
])('the run loop reports %s', async (_, script, heldAtLeast, expected) => {
	const { loop } = await run(3, { script: answers(script), settings: { policy } });
	const summary = loop.report.summarize(loop.items.map(() => ok));
	expect(summary).toMatchObject(expected);
	expect(summary.heldBackMs).toBeGreaterThanOrEqual(heldAtLeast);
});
