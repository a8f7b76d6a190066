// The execution hints of re-runs: what an earlier try's record answered, items
// a done key skipped, the safe way on after failed items of a create, and
// Unconfirmed Earlier Try left at one value for every item.
import {
	executionHints,
	failedItemsHint,
} from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import {
	earlierTryHint,
	keyHint,
	unconfirmedForAllHint,
} from '../../nodes/OutreachSequences/run/outcome/reRunHints.ts';
import type { RunSummary } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { clean, create } from './hints-helpers.mts';

const events = (counts: Partial<RunSummary['earlierTry']>) => ({
	...clean,
	earlierTry: { ...clean.earlierTry, ...counts },
});

test("when n8n ran the node again: what the earlier try's record answered", () => {
	expect(earlierTryHint(clean)).toBeUndefined();
	expect(earlierTryHint(events({ answered: 34 }))).toEqual({
		type: 'info',
		location: 'outputPane',
		message:
			'n8n ran this node again (Retry On Fail, or Executions › Retry). 34 items the service had already carried out were not sent again: their output is the answer the service gave then.',
	});
	expect(earlierTryHint(events({ answered: 1 }))?.message).toBe(
		'n8n ran this node again (Retry On Fail, or Executions › Retry). 1 item the service had already carried out was not sent again: its output is the answer the service gave then.',
	);
});

test('an edited retry: the items kept although their request changed are named by their IDs', () => {
	const message = earlierTryHint({
		...events({ kept: 7 }),
		keptIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
	})?.message;
	expect(message).toContain("7 items were kept although the node's settings changed since");
	expect(message).toContain('(IDs: a, b, c, d, e and 2 more)');
});

test('items whose outcome is unknown: failed again, unsent, or as the user said', () => {
	const message = earlierTryHint(
		events({ failedAgain: 1, sentAgain: 2, countedAsDone: 3 }),
	)?.message;
	expect(message).toContain(
		'1 item an earlier try sent without a confirmation was not sent again: check it in the outreach service, then set Request Options › Unconfirmed Earlier Try.',
	);
	expect(message).toContain(
		'2 items were sent again, as Request Options › Unconfirmed Earlier Try says.',
	);
	expect(message).toContain(
		'3 items were counted as done, as Request Options › Unconfirmed Earlier Try says.',
	);
	const failed = failedItemsHint(
		{ ...clean, failed: { ...clean.failed, unknownBefore: 1 } },
		create,
	);
	expect(failed?.message).toContain(
		'1 was not sent again: an earlier try, or another execution with the same key, sent it or is sending it now, and the service may have carried it out (outcome "mayHaveActed")',
	);
});

test('items a done key skipped', () => {
	expect(keyHint(clean)).toBeUndefined();
	expect(keyHint(events({ keyDoneBefore: 2 }))?.message).toBe(
		'2 items were not sent: this node had already carried out an item with the same key within the window of Request Options › Skip Items Done Before. Their output says so ("skipped": true).',
	);
});

test('after failed items of a create, the hint says the safe way on, with and without the done keys', () => {
	const subject = { noun: 'sequence', verb: 'create', done: 'created' };
	const failed = { ...clean, failed: { ...clean.failed, mayHaveActed: 1 } };
	expect(failedItemsHint(failed, { ...create, subject })?.message).toMatch(
		/ Executions › Retry keeps what was already created; Execute workflow starts over and creates it again, unless Request Options › Skip Items Done Before was set for this run\.$/,
	);
	expect(failedItemsHint(failed, { ...create, subject, doneKeys: true })?.message).toMatch(
		/ Executions › Retry keeps what was already created, and so does Request Options › Skip Items Done Before when the workflow runs again\.$/,
	);
	expect(failedItemsHint(failed, { ...create, subject, recentCreates: true })?.message).toMatch(
		/ Executions › Retry keeps what was already created, and so does Execute workflow within 10 minutes\.$/,
	);
	expect(failedItemsHint(failed, { ...create, readOnly: true, subject })?.message).not.toContain(
		'Executions › Retry',
	);
	// Failed items that went on as output: the execution succeeded, and n8n offers no Retry for it.
	expect(failedItemsHint(failed, { ...create, subject, continues: true })?.message).toMatch(
		/ Running the workflow again creates again what was already created, unless Request Options › Skip Items Done Before was set for this run\.$/,
	);
	expect(
		failedItemsHint(failed, { ...create, subject, continues: true, doneKeys: true })?.message,
	).toMatch(
		/ Running the workflow again does not create again what was created: Request Options › Skip Items Done Before skips it\.$/,
	);
});

test('items carried out in an earlier try whose answers were lost are not failures: the re-run hint counts them', () => {
	const summary = { ...clean, earlierTry: { ...clean.earlierTry, answerLost: 2 } };
	expect(failedItemsHint(summary, create)).toBeUndefined();
	expect(earlierTryHint(summary)?.message).toBe(
		'n8n ran this node again (Retry On Fail, or Executions › Retry). 2 items the service had already carried out were not sent again; their answers were too large to keep or lost in a crash, so their output says so ("skipped": true).',
	);
});

test('Unconfirmed Earlier Try left at one value for every item: a warning, that it decides unchecked on a later retry', () => {
	expect(unconfirmedForAllHint(create)).toBeUndefined();
	expect(unconfirmedForAllHint({ ...create, unconfirmedForAll: 'countAsDone' })).toEqual({
		type: 'warning',
		location: 'outputPane',
		message:
			'Request Options › Unconfirmed Earlier Try is Count as Done for every item: when n8n runs this node again, an item whose outcome is unknown is counted as done without a check, and is never sent. Set it back to Fail once the retry it was meant for has run, or decide per item with an expression.',
	});
	expect(unconfirmedForAllHint({ ...create, unconfirmedForAll: 'sendAgain' })?.message).toContain(
		'is sent again without a check, and may be carried out twice',
	);
	expect(
		unconfirmedForAllHint({ ...create, readOnly: true, unconfirmedForAll: 'sendAgain' }),
	).toBeUndefined();
	expect(executionHints(clean, { ...create, unconfirmedForAll: 'sendAgain' })).toHaveLength(1);
});
