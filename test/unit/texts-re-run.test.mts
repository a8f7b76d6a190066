// The words of the node's memory (run/outcome/reRunTexts.ts, reRunHints.ts):
// an item done before, one counted as done, one claimed and never confirmed,
// n8n's store failing, the memory off, and a run too large for the row.
// Asserted here once; the engine and e2e suites assert what was sent and skipped.
import {
	countedAsDoneItem,
	doneBeforeItem,
	lostAnswerText,
	storeFailedText,
	unknownBeforeText,
} from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import {
	doneBeforeHint,
	memoryOffHint,
	rowFullHint,
} from '../../nodes/OutreachSequences/run/outcome/reRunHints.ts';
import { clean } from './hints-helpers.mts';
import { contact } from './texts-helpers.mts';

const s2 = { noun: 'sequence', name: 'S2', verb: 'create', done: 'created' };
const HOUR = 60 * 60_000;

test('an item done before: when, in which execution and its ID where this process knows them; otherwise the window', () => {
	expect(doneBeforeItem(s2, { at: 1_000, execution: '17', id: 'seq-9' }, HOUR, 46_000)).toEqual({
		skipped: true,
		id: 'seq-9',
		reason:
			'This node already created the sequence "S2" 45 seconds ago, in execution 17, so it was not sent again (Request Options › Skip Items Done Before). To send it again, turn on Request Options › Repeat Items Done Before.',
	});
	expect(doneBeforeItem(s2, undefined, HOUR, 0)).toEqual({
		skipped: true,
		id: null,
		reason:
			'This node already created the sequence "S2" within the last 1 hour, so it was not sent again (Request Options › Skip Items Done Before). To send it again, turn on Request Options › Repeat Items Done Before.',
	});
});

test('an item counted as done, as the user said: skipped, with why', () => {
	expect(countedAsDoneItem(s2)).toEqual({
		skipped: true,
		id: null,
		reason:
			'Counted as done, as Request Options › Unconfirmed Earlier Try says: an earlier try sent the request to create the sequence "S2", and the outreach service may have carried it out. It was not sent again.',
	});
});

test('an item claimed within the window and never confirmed: by an execution still running, or by an earlier run', () => {
	const earlier = { message: '', description: '', statusCode: null, networkError: null };
	const running = unknownBeforeText(s2, { ...earlier, claimed: '18', windowMs: HOUR }, 1);
	expect(running.message).toBe(
		'Execution 18, which is still running, sent the request to create the sequence "S2" within the last 1 hour, and the outreach service never confirmed it (n8n stopped or crashed, or the answer was a failure), so it may have carried it out. It was not sent.',
	);
	const before = unknownBeforeText(s2, { ...earlier, claimed: '', windowMs: HOUR }, 1);
	expect(before.message).toMatch(/^An earlier run of this node sent the request/);
	expect(before.description).toBe(
		"If that execution is still running, let it end, then run this one again: what it confirms is skipped. Otherwise: Check in the outreach service whether the sequence \"S2\" was created. Then set Request Options › Unconfirmed Earlier Try to Send Again (it was not) or Count as Done (it was), save (n8n 2.x saves on its own), and run the workflow again. For this item alone, the option can be the expression {{ $itemIndex === 1 ? 'countAsDone' : 'fail' }}.",
	);
});

test("n8n's store for processed items failing: why nothing was sent, and what to do", () => {
	expect(storeFailedText('SQLITE_BUSY: database is locked')).toBe(
		"n8n's store for processed items failed (SQLITE_BUSY: database is locked), so the node could not write down or look up what it sends, and sends nothing it can't account for. Run it again once n8n's database answers again.",
	);
});

test('a request whose answer was lost as the node failed: the service may have carried it out', () => {
	expect(lostAnswerText(contact)).toBe(
		'The request to archive contact "c-42" went out as the node failed, and its answer was lost, so the outreach service may have carried it out.',
	);
});

test('the hints: items done before (with the window, and the IDs this process does not know), the memory off, a run too large', () => {
	const done = (doneBefore: number, doneBeforeWithoutId = 0) => ({
		...clean,
		earlierTry: { ...clean.earlierTry, doneBefore },
		doneBeforeWithoutId,
	});
	expect(doneBeforeHint(done(3), HOUR)).toEqual({
		type: 'info',
		location: 'outputPane',
		message:
			'3 items were not sent again: done within the last 1 hour (their output says "skipped": true). Request Options › Repeat Items Done Before sends them again.',
	});
	expect(doneBeforeHint(done(1, 1), HOUR)?.message).toBe(
		'1 item was not sent again: done within the last 1 hour (its output says "skipped": true). It gives "id": null: later nodes get no ID for it.',
	);
	expect(doneBeforeHint(done(5, 2), HOUR)?.message).toContain(
		' 2 give "id": null: later nodes get no ID for them.',
	);
	expect(doneBeforeHint(done(0), HOUR)).toBeUndefined();
	expect(memoryOffHint().message).toBe(
		'This workflow is not saved, so the node keeps no memory of what it did: running it again sends every item again, and Request Options › Skip Items Done Before is off. Save the workflow to turn the memory on.',
	);
	expect(rowFullHint(60_000, 50_000, HOUR)).toEqual({
		type: 'warning',
		location: 'outputPane',
		message:
			"This run has 60,000 items and the node's memory keeps 50,000: its first items may be forgotten within 1 hour and sent again. Split the input, for example with Loop Over Items.",
	});
});
