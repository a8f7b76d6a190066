// The words of re-runs, of the memory and of a stopped run
// (run/outcome/reRunTexts.ts), and the item lists they are made of
// (words.ts), by their facts: what was done, when, and the way on.
import {
	answerLostItem,
	countedAsDoneItem,
	doneBeforeItem,
	lostAnswerText,
	safeWayOn,
	span,
	stepsAfterStop,
	stopText,
	storeFailedText,
	unknownBeforeText,
} from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import type { StopFacts } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import {
	duration,
	itemNumbers,
	namedItems,
} from '../../nodes/OutreachSequences/run/outcome/words.ts';

const contact = { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' };
const s2 = { noun: 'sequence', name: 'S2', verb: 'create', done: 'created' };
const HOUR = 3_600_000;
const earlier = {
	message: 'It failed (HTTP 500).',
	description: 'd',
	statusCode: 500,
	networkError: null,
};
const contains = (text: string | undefined, facts: string) => {
	for (const fact of facts.split('|')) expect(text).toContain(fact);
};

test.each([
	[itemNumbers([4]), '4'],
	[itemNumbers([2, 3]), '2 and 3'],
	[itemNumbers([2, 3, 5, 6, 7, 9]), '2, 3, 5 to 7 and 9'],
	[itemNumbers([0, 2, 4, 6, 8, 10, 11, 12]), '0, 2, 4, 6, 8 and 3 more'],
	[itemNumbers([0, 2, 4, 6, 8], 2), '0, 2 and 3 more'],
	[namedItems([3], { 3: 'S4' }), 'item 3 ("S4")'],
	[namedItems([3, 6], { 3: 'S4', 6: 'S7' }), 'items 3 ("S4") and 6'],
	[namedItems([3, 6, 7, 8, 10, 12], { 3: 'S4' }), 'items 3 ("S4"), 6 to 8, 10 and 1 more'],
	[namedItems([3, 6, 7, 8, 10, 12], {}), 'items 3, 6 to 8, 10 and 1 more'],
	[namedItems([0], { 0: 'Spring follow-up for the Q3' }), 'item 0 ("Spring follow-up for th…")'],
	[span(45_000), '45 seconds'],
	[span(90 * 60_000), '90 minutes'],
	[span(HOUR), '1 hour'],
	[span(24 * HOUR), '24 hours'],
	[duration(0), '0 seconds'],
	[duration(1000), '1 second'],
	[duration(90_449), '90.4 seconds'],
])('items by number, runs as ranges, the first by name; spans of time: %j', (text, expected) => {
	expect(text).toBe(expected);
});

const sequence = { noun: 'sequence', verb: 'create', done: 'created' };
const none = { mayHave: [], notDone: [], neverSent: [] };
const stop = (facts: Partial<StopFacts>, way = { text: 'WAY ON', namesMayHave: false }) =>
	stopText({ subject: sequence, items: 10, done: [], ...none, ...facts }, way);
const steps = stepsAfterStop(sequence, [2, 3]);
const named = [
	{ name: 'Seq 01', id: 'seq-1' },
	{ name: 'Seq 02', id: 'seq-2' },
];
const many = Array.from({ length: 34 }, (_, index) => ({ id: `seq-${index + 1}` }));
const claimed = (by: string) =>
	unknownBeforeText(s2, { ...earlier, claimed: by, windowMs: HOUR }, 1);
const retried = unknownBeforeText(s2, earlier, 3);
const known = { at: 1_000, execution: '17', id: 'seq-9' };

const done = doneBeforeItem(s2, known, HOUR, 46_000);
const doneInWindow = doneBeforeItem(s2, undefined, HOUR, 0);
test.each([
	['"S2" 45 seconds ago|execution 17|turn on Request Options › Repeat', done.reason],
	['within the last 1 hour|Skip Items Done Before', doneInWindow.reason],
	['Counted as done|Unconfirmed Earlier Try|may have carried it out', countedAsDoneItem(s2).reason],
	['already archived contact "c-42"|too large|find it in the', answerLostItem(contact).reason],
	['Execution 18, which is still running,|"S2"|1 hour|never confirmed', claimed('18').message],
	['An earlier run of this node|never confirmed|It was not sent', claimed('').message],
	["let it end|Send Again|Count as Done|$itemIndex === 1 ? 'countAsDone'", claimed('').description],
	['It failed (HTTP 500). n8n ran the node again|Unconfirmed Earlier Try', retried.message],
	['"S2" was created|Executions › Retry|$itemIndex === 3|failure: d', retried.description],
	['SQLITE_BUSY|sends nothing|Run it again', storeFailedText('SQLITE_BUSY: database is locked')],
	['contact "c-42"|answer was lost|may have carried it out', lostAnswerText(contact)],
	['Executions › Retry keeps what was already created|within 1 hour', safeWayOn(s2, HOUR)],
	['creates it again|not saved', safeWayOn(s2, undefined)],
	['items 2 and 3 were created|Count as Done (they were)|is sent again|$itemIndex === 2', steps],
	[
		'item 0 was archived|Count as Done (it was)|Send Again (it was not)',
		stepsAfterStop(contact, [0]),
	],
	['2 of 10 sequences were created: "Seq 01" (seq-1), "Seq 02" (seq-2)', stop({ done: named })],
	['WAY ON|Items 4 to 9 were never sent', stop({ neverSent: [4, 5, 6, 7, 8, 9] })],
	[
		'1 of 3 sequences was created: seq-1.|Item 1 may have been created|did not confirm it',
		stop({ items: 3, done: [{ id: 'seq-1' }], mayHave: [1] }),
	],
	[
		'seq-1, seq-2, seq-3, seq-4, seq-5 and 29 more|Item 30 failed and was not created',
		stop({ items: 40, done: many, notDone: [30] }),
	],
])('%s', (facts, text) => {
	contains(text, facts);
});

test.each([
	[done, 'seq-9'],
	[doneInWindow, null],
	[countedAsDoneItem(s2), null],
	[answerLostItem(contact), 'c-42'],
])('a skipped item says so, with the ID where one is known: %#', (item, id) => {
	expect(item).toMatchObject({ skipped: true, id });
});

test('a stopped run: the steps that name what may have been done come first and say it once; a read has no way on', () => {
	const text = stop({ mayHave: [2, 3] }, { text: steps, namesMayHave: true });
	expect(text.startsWith(steps)).toBe(true);
	expect(text).not.toContain('did not confirm');
	expect(stepsAfterStop(contact, [0])).not.toContain('$itemIndex');
	const fetched = { noun: 'use case', verb: 'get', done: 'fetched' };
	const read = stopText(
		{ subject: fetched, items: 2, done: [{}], ...none },
		{ text: '', namesMayHave: false },
	);
	expect(read).toBe('1 of 2 use cases was fetched.');
});
