// What slowed a run down, summed up with how its items ended.
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';

const ok = undefined;

test('a clean run reports nothing', () => {
	expect(new RunReport().summarize([ok, ok])).toEqual({
		items: 2,
		pushBacks: 0,
		waitedRequests: 0,
		longestWaitMs: 0,
		heldBackMs: 0,
		retriedItems: 0,
		retriedFailed: 0,
		transientRetried: 0,
		breakerOpened: 0,
		notSentAgain: { disabled: 0, exhausted: 0, waitTooLong: 0 },
		failed: {
			notSent: 0,
			n8nRefused: 0,
			rejected: 0,
			unreached: 0,
			mayHaveActed: 0,
			unknownBefore: 0,
			serviceDown: 0,
		},
		failedItems: { mayHave: [], notActed: [], labels: {} },
		earlierTry: {
			answered: 0,
			kept: 0,
			answerLost: 0,
			countedAsDone: 0,
			failedAgain: 0,
			sentAgain: 0,
			doneBefore: 0,
		},
		doneBeforeWithoutId: 0,
		keptIds: [],
		limit: { runMs: 0, fullMs: 0, heldAt: 0, quickestAnswerMs: 0, meanAnswerMs: 0 },
	});
});

test("the in-flight limit: the run's time from its first request to its last answer, the time the limit was full, and the answers' times", () => {
	const report = new RunReport();
	report.answered(100, 400);
	report.answered(150, 350);
	report.limitFull(120, 8);
	report.limitFull(80, 16);
	expect(report.summarize([ok, ok]).limit).toEqual({
		runMs: 300,
		fullMs: 200,
		heldAt: 16,
		quickestAnswerMs: 200,
		meanAnswerMs: 250,
	});
});

test('waits, push-backs and retried items are counted; a retried item that still failed is counted once', () => {
	const report = new RunReport();
	report.waited(1000);
	report.waited(0);
	report.waited(2500);
	report.pushedBack();
	report.pushedBack();
	report.retrying(1, 'pushedBack');
	report.retrying(1, 'transient');
	report.retrying(2, 'pushedBack');
	report.heldBack(3000);
	const summary = report.summarize([ok, ok, 'rejected', 'mayHaveActed']);
	expect(summary).toMatchObject({
		pushBacks: 2,
		waitedRequests: 2,
		longestWaitMs: 2500,
		heldBackMs: 3000,
		retriedItems: 2,
		retriedFailed: 1,
	});
	expect(summary.failed).toEqual({
		notSent: 0,
		n8nRefused: 0,
		rejected: 1,
		unreached: 0,
		mayHaveActed: 1,
		unknownBefore: 0,
		serviceDown: 0,
	});
	expect(summary.transientRetried).toBe(1);
});

test('the failed items by index, those the service may have carried out apart, the first two of each with their names', () => {
	const ends = [
		ok,
		'rejected',
		'mayHaveActed',
		'notSent',
		'unknownBefore',
		'rejected',
		'mayHaveActed',
	] as const;
	const labels = ['S1', 'S2', 'S3', undefined, 'S5', 'S6', 'S7'];
	expect(new RunReport().summarize([...ends], labels).failedItems).toEqual({
		mayHave: [2, 4, 6],
		notActed: [1, 3, 5],
		// Item 3 has no name (its request was never made); items 5 and 6 come after the first two of their kind.
		labels: { 1: 'S2', 2: 'S3', 4: 'S5' },
	});
});

test('what came of items an earlier try or execution handled: counted by event, with the IDs of those kept', () => {
	const report = new RunReport();
	report.earlierTry('answered', 'seq-1');
	report.earlierTry('answered', 'seq-2');
	report.earlierTry('kept', 'seq-3');
	report.earlierTry('kept', 4);
	report.earlierTry('kept', undefined);
	report.earlierTry('failedAgain');
	report.earlierTry('doneBefore', 'seq-9');
	report.earlierTry('answerLost');
	report.earlierTry('doneBefore', null);
	const summary = report.summarize([ok]);
	expect(summary.earlierTry).toEqual({
		answered: 2,
		kept: 3,
		answerLost: 1,
		countedAsDone: 0,
		failedAgain: 1,
		sentAgain: 0,
		doneBefore: 2,
	});
	expect(summary.keptIds).toEqual(['seq-3', '4']);
	expect(summary.doneBeforeWithoutId).toBe(1);
});
