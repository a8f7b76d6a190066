// The execution hints of re-runs: what an earlier try's record answered, what failed items of a create say, and Unconfirmed
// Earlier Try left at one value for every item.
import {
	executionHints,
	failedItemsHint,
} from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import {
	doneBeforeHint,
	earlierTryHint,
	rowFullHint,
	unconfirmedForAllHint,
} from '../../nodes/OutreachSequences/run/outcome/reRunHints.ts';
import { safeWayOn } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import type { RunSummary } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { HINT_BUDGET } from '../../nodes/OutreachSequences/run/outcome/words.ts';
import { clean, create, failing } from './hints-helpers.mts';

const events = (counts: Partial<RunSummary['earlierTry']>) => ({
	...clean,
	earlierTry: { ...clean.earlierTry, ...counts },
});

test("when n8n ran the node again: what the earlier try's record answered", () => {
	expect(earlierTryHint(clean)).toBeUndefined();
	expect(earlierTryHint(events({ answered: 34 }))).toEqual({
		type: 'info',
		location: 'outputPane',
		message: 'n8n ran this node again: 34 items carried out in an earlier try were not sent again.',
	});
	expect(earlierTryHint(events({ answered: 1 }))?.message).toBe(
		'n8n ran this node again: 1 item carried out in an earlier try was not sent again.',
	);
});

test('an edited retry: the items kept although their request changed are named by their IDs', () => {
	const message = earlierTryHint({
		...events({ answered: 3, kept: 7 }),
		keptIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
	})?.message;
	expect(message).toBe(
		'n8n ran this node again: 10 items carried out in an earlier try were not sent again. 7 kept their earlier answer though the settings changed (a, b and 5 more).',
	);
});

test('items whose outcome is unknown: as the user said; one that failed again is the failed-items hint', () => {
	expect(earlierTryHint(events({ sentAgain: 2, countedAsDone: 3 }))?.message).toBe(
		'n8n ran this node again. 3 items were counted as done and 2 sent again, as Request Options › Unconfirmed Earlier Try says.',
	);
	expect(earlierTryHint(events({ sentAgain: 1 }))?.message).toContain(
		'1 item was sent again, as Request Options › Unconfirmed Earlier Try says.',
	);
	// Failed again, unsent: not this hint's (said once, by the failed-items hint).
	expect(earlierTryHint(events({ failedAgain: 1 }))).toBeUndefined();
	const failed = failedItemsHint(
		{
			...failing({ 4: 'unknownBefore' }, ['', '', '', '', 'S5']),
			earlierTry: { ...clean.earlierTry, failedAgain: 1 },
		},
		{ ...create, subject: { noun: 'sequence', verb: 'create', done: 'created' } },
	);
	expect(failed?.message).toMatch(
		/^1 of 10 items failed: item 4 \("S5"\) may have been created: check before sending it again\./,
	);
});

test("after a crash, what the user said comes before what the items' outputs say themselves", () => {
	expect(
		earlierTryHint(events({ answered: 100, answerLost: 60, countedAsDone: 40 }))?.message,
	).toBe(
		'n8n ran this node again: 160 items carried out in an earlier try were not sent again. 40 items were counted as done, as Request Options › Unconfirmed Earlier Try says.',
	);
});

test('after failed items, the hint says what to do with them, not what running the workflow again does (the stop error says that)', () => {
	const subject = { noun: 'sequence', verb: 'create', done: 'created' };
	const failed = failing({ 1: 'mayHaveActed' });
	for (const setting of [{}, { windowMs: 3_600_000 }]) {
		const message = failedItemsHint(failed, { ...create, subject, ...setting })?.message;
		expect(message).not.toContain('Executions › Retry');
		expect(message).not.toContain('Skip Items Done Before');
	}
});

test('the safe way on, as the stop error says it: with the memory, or without it (an unsaved workflow)', () => {
	const subject = { noun: 'sequence', verb: 'create', done: 'created' };
	expect(safeWayOn(subject, 3_600_000)).toBe(
		'Executions › Retry keeps what was already created, and so does running the workflow again within 1 hour.',
	);
	expect(safeWayOn(subject, undefined)).toBe(
		'Executions › Retry keeps what was already created; running the workflow again creates it again, as this workflow is not saved.',
	);
});

test('items carried out in an earlier try whose answers were lost are not failures: the re-run hint counts them', () => {
	const summary = { ...clean, earlierTry: { ...clean.earlierTry, answered: 3, answerLost: 2 } };
	expect(failedItemsHint(summary, create)).toBeUndefined();
	expect(earlierTryHint(summary)?.message).toBe(
		'n8n ran this node again: 5 items carried out in an earlier try were not sent again. 2 of them had no answer kept: their output says "skipped": true.',
	);
});

test('Unconfirmed Earlier Try left at one value for every item: a warning, to set it back, as a later retry would decide unchecked', () => {
	expect(unconfirmedForAllHint(create)).toBeUndefined();
	expect(unconfirmedForAllHint({ ...create, unconfirmedForAll: 'countAsDone' })).toEqual({
		type: 'warning',
		location: 'outputPane',
		message:
			'Set Request Options › Unconfirmed Earlier Try back to Fail after this retry: at Count as Done for every item, a later retry counts every unchecked item as done.',
	});
	expect(unconfirmedForAllHint({ ...create, unconfirmedForAll: 'sendAgain' })?.message).toBe(
		'Set Request Options › Unconfirmed Earlier Try back to Fail after this retry: at Send Again for every item, a later retry sends every unchecked item again, and may carry it out twice.',
	);
	expect(
		unconfirmedForAllHint({ ...create, readOnly: true, unconfirmedForAll: 'sendAgain' }),
	).toBeUndefined();
	expect(executionHints(clean, { ...create, unconfirmedForAll: 'sendAgain' })).toHaveLength(1);
});

test('every re-run hint fits in three lines of the output pane', () => {
	const longest = [
		earlierTryHint({
			...events({ answered: 49_000, kept: 500, answerLost: 400, countedAsDone: 50, sentAgain: 50 }),
			keptIds: [
				'seq-0a1b2c3d-4e5f-6789-abcd-ef0123456789',
				'seq-1a1b2c3d-4e5f-6789-abcd-ef0123456789',
			],
		}),
		doneBeforeHint({ ...events({ doneBefore: 50_000 }), doneBeforeWithoutId: 49_999 }, 86_400_000),
		rowFullHint(500_000, 50_000, 86_400_000),
		unconfirmedForAllHint({ ...create, unconfirmedForAll: 'sendAgain' }),
	];
	for (const hint of longest) expect(hint?.message.length).toBeLessThanOrEqual(HINT_BUDGET);
});
