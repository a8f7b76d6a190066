// The words of a re-run and of the node's memory (run/outcome/reRunTexts.ts,
// reRunHints.ts): an item a done key skipped, one counted as done, one this
// node created lately or another execution is sending, n8n's store failing,
// and a run whose keys push earlier ones out. Asserted here once; the engine
// and e2e suites assert what was sent and skipped.
import {
	countedAsDoneItem,
	createdLatelyItem,
	keyDoneBeforeItem,
	keyStoreFailedText,
	lostAnswerText,
	noKeyStoreText,
	sendingElsewhereText,
	storeFailedText,
} from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import {
	createdLatelyHint,
	keysPushedOutHint,
} from '../../nodes/OutreachSequences/run/outcome/reRunHints.ts';
import { clean } from './hints-helpers.mts';
import { contact } from './texts-helpers.mts';

const s2 = { noun: 'sequence', name: 'S2', verb: 'create', done: 'created' };

test('an item whose done key an earlier execution of this node had: skipped, with its key and the Window', () => {
	expect(keyDoneBeforeItem({ ...s2, name: 'S1' }, 'S1', 60 * 60_000)).toEqual({
		skipped: true,
		key: 'S1',
		id: null,
		reason:
			'This node already created the sequence for key "S1" (Request Options › Skip Items Done Before, Window 1 hour), so it was not sent again.',
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

test('a create this node made lately with the very same request: when, in which execution, and how to make it again', () => {
	const made = createdLatelyItem(s2, { at: 1_000, execution: '17', id: 'seq-9' }, 46_000);
	expect(made).toEqual({
		skipped: true,
		id: 'seq-9',
		reason:
			'This node created the sequence "S2" 45 seconds ago, in execution 17, with the very same request, so it was not created again. To create it again, turn on Request Options › Repeat Recent Creates.',
	});
	const unsaved = createdLatelyItem(s2, { at: 0, execution: '', id: null }, 7 * 60_000);
	expect(unsaved.reason).toBe(
		'This node created the sequence "S2" 7 minutes ago, with the very same request, so it was not created again. To create it again, turn on Request Options › Repeat Recent Creates.',
	);
	expect(sendingElsewhereText(s2, '18')).toEqual({
		message:
			'Not sent: execution 18 of this workflow is sending the very same request to create the sequence "S2" right now.',
		description:
			'Run this one again once that execution has ended: what it created is then skipped, and what it did not is sent. To create it twice on purpose, turn on Request Options › Repeat Recent Creates.',
	});
});

test("n8n's store for processed items failing, or missing: why nothing was sent, and what to do", () => {
	expect(storeFailedText('SQLITE_BUSY: database is locked')).toBe(
		"n8n's store for processed items failed (SQLITE_BUSY: database is locked), so the node could not write down or look up what it sends, and sends nothing it can't account for. Run it again once n8n's database answers again.",
	);
	expect(keyStoreFailedText('SQLITE_BUSY: database is locked')).toBe(
		"n8n's store for processed items failed (SQLITE_BUSY: database is locked), so Request Options › Skip Items Done Before could not check this item's key, and nothing was sent. Run the workflow again; if the store fails again, n8n's log and database say why.",
	);
	expect(noKeyStoreText()).toBe(
		"Request Options › Skip Items Done Before needs n8n's store for processed items: n8n 1.65 or later, and a saved workflow.",
	);
});

test('a request whose answer was lost as the node failed: the service may have carried it out', () => {
	expect(lostAnswerText(contact)).toBe(
		'The request to archive contact "c-42" went out as the node failed, and its answer was lost, so the outreach service may have carried it out.',
	);
});

test('the hints of creates made lately, and of keys that push earlier ones out', () => {
	const lately = (createdLately: number) => ({
		...clean,
		earlierTry: { ...clean.earlierTry, createdLately },
	});
	expect(createdLatelyHint(lately(3))).toEqual({
		type: 'info',
		location: 'outputPane',
		message:
			'3 items were not created again: this node created the very same ones less than 10 minutes ago (their output says when). Request Options › Repeat Recent Creates creates them again.',
	});
	expect(createdLatelyHint(lately(1))?.message).toBe(
		'1 item was not created again: this node created the very same one less than 10 minutes ago (its output says when). Request Options › Repeat Recent Creates creates it again.',
	);
	expect(keysPushedOutHint(149_990, 13, 150_000, 50_000)).toEqual({
		type: 'warning',
		location: 'outputPane',
		message:
			"n8n keeps 150,000 entries for this node's keys, holds 149,990, and this run adds up to 13: keys of earlier runs may be forgotten before their Window ends, and sent again.",
	});
	expect(keysPushedOutHint(149_986, 13, 150_000, 50_000)).toBeUndefined();
});
