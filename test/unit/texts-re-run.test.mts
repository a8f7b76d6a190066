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
import { itemNumbers, namedItems } from '../../nodes/OutreachSequences/run/outcome/words.ts';

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

test.each<[number[], number | undefined, string]>([
	[[4], undefined, '4'],
	[[2, 3], undefined, '2 and 3'],
	[[2, 3, 5, 6, 7, 9], undefined, '2, 3, 5 to 7 and 9'],
	[[0, 2, 4, 6, 8, 10, 11, 12], undefined, '0, 2, 4, 6, 8 and 3 more'],
	[[0, 2, 4, 6, 8], 2, '0, 2 and 3 more'],
])('item numbers as n8n counts them: %j in %s parts is %j', (indices, parts, text) => {
	expect(itemNumbers(indices, parts)).toBe(text);
});

test.each<[number[], Record<number, string>, string]>([
	[[3], { 3: 'S4' }, 'item 3 ("S4")'],
	[[3, 6], { 3: 'S4', 6: 'S7' }, 'items 3 ("S4") and 6'],
	[[3, 6, 7, 8, 10, 12], { 3: 'S4' }, 'items 3 ("S4"), 6 to 8, 10 and 1 more'],
	[[3, 6, 7, 8, 10, 12], {}, 'items 3, 6 to 8, 10 and 1 more'],
	[[0], { 0: 'Spring follow-up for the Q3 accounts' }, 'item 0 ("Spring follow-up for th…")'],
])('items as the hints name them: %j, the first by its name', (indices, labels, text) => {
	expect(namedItems(indices, labels)).toBe(text);
});

test.each([
	[45_000, '45 seconds'],
	[90 * 60_000, '90 minutes'],
	[HOUR, '1 hour'],
	[24 * HOUR, '24 hours'],
])('a window or an age: %i ms is %s', (ms, text) => {
	expect(span(ms)).toBe(text);
});

const claimed = (by: string) =>
	unknownBeforeText(s2, { ...earlier, claimed: by, windowMs: HOUR }, 1);
const retried = unknownBeforeText(s2, earlier, 3);
const known = { at: 1_000, execution: '17', id: 'seq-9' };

test.each([
	[
		'created the sequence "S2" 45 seconds ago|execution 17|Repeat Items Done Before',
		doneBeforeItem(s2, known, HOUR, 46_000).reason,
	],
	['within the last 1 hour|Skip Items Done Before', doneBeforeItem(s2, undefined, HOUR, 0).reason],
	['Counted as done|Unconfirmed Earlier Try|may have carried it out', countedAsDoneItem(s2).reason],
	[
		'already archived contact "c-42"|too large|find it in the outreach service',
		answerLostItem(contact).reason,
	],
	[
		'Execution 18, which is still running,|the sequence "S2"|1 hour|never confirmed|not sent',
		claimed('18').message,
	],
	['An earlier run of this node|never confirmed', claimed('').message],
	[
		"let it end|Send Again|Count as Done|run the workflow again|$itemIndex === 1 ? 'countAsDone'",
		claimed('').description,
	],
	['It failed (HTTP 500). n8n ran the node again|Unconfirmed Earlier Try', retried.message],
	[
		'whether the sequence "S2" was created|Executions › Retry|$itemIndex === 3|earlier failure: d',
		retried.description,
	],
	['SQLITE_BUSY|sends nothing|Run it again', storeFailedText('SQLITE_BUSY: database is locked')],
	['archive contact "c-42"|answer was lost|may have carried it out', lostAnswerText(contact)],
	['Executions › Retry keeps what was already created|within 1 hour', safeWayOn(s2, HOUR)],
	['creates it again|not saved', safeWayOn(s2, undefined)],
])('%s', (facts, text) => {
	contains(text, facts);
});

test.each([
	[doneBeforeItem(s2, known, HOUR, 46_000), 'seq-9'],
	[doneBeforeItem(s2, undefined, HOUR, 0), null],
	[countedAsDoneItem(s2), null],
	[answerLostItem(contact), 'c-42'],
])('a skipped item says so, with the ID where one is known: %#', (item, id) => {
	expect(item).toMatchObject({ skipped: true, id });
});

describe('what a stopped run says it did before it stopped', () => {
	const none = { mayHave: [], notDone: [], neverSent: [] };
	const sequence = { noun: 'sequence', verb: 'create', done: 'created' };
	const way = { text: 'WAY ON', namesMayHave: false };

	test('the steps first, naming what may have been created; then what was, by name and ID; then what was never sent', () => {
		const done = [
			{ name: 'Seq 01', id: 'seq-1' },
			{ name: 'Seq 02', id: 'seq-2' },
		];
		const steps = stepsAfterStop(sequence, [2, 3]);
		contains(
			steps,
			'items 2 and 3 were created|Count as Done (they were)|Executions › Retry|nothing created is sent again|$itemIndex === 2',
		);
		const facts = {
			subject: sequence,
			items: 10,
			done,
			...none,
			mayHave: [2, 3],
			neverSent: [4, 5, 6, 7, 8, 9],
		};
		const text = stopText(facts, { text: steps, namesMayHave: true });
		expect(text.startsWith(steps)).toBe(true);
		contains(
			text,
			'2 of 10 sequences were created: "Seq 01" (seq-1), "Seq 02" (seq-2)|Items 4 to 9 were never sent',
		);
		expect(text).not.toContain('did not confirm');
	});

	test.each([
		[
			'one may have been, named after what was',
			{ items: 3, done: [{ id: 'seq-1' }], ...none, mayHave: [1] },
			'WAY ON 1 of 3 sequences was created: seq-1.|Item 1 may have been created|did not confirm it',
		],
		[
			'many done: five named, then a count; one failed and not done',
			{
				items: 40,
				done: Array.from({ length: 34 }, (_, index) => ({ id: `seq-${index + 1}` })),
				...none,
				notDone: [30],
			},
			'34 of 40 sequences were created: seq-1, seq-2, seq-3, seq-4, seq-5 and 29 more|Item 30 failed and was not created',
		],
	])('%s', (_, facts, said) => {
		contains(stopText({ subject: sequence, ...facts }, way), said);
	});

	test('a read: no way on, no IDs; the steps for a single item', () => {
		const fetched = { noun: 'use case', verb: 'get', done: 'fetched' };
		const text = stopText(
			{ subject: fetched, items: 2, done: [{}], ...none },
			{ text: '', namesMayHave: false },
		);
		expect(text).toBe('1 of 2 use cases was fetched.');
		contains(
			stepsAfterStop(contact, [0]),
			'item 0 was archived|Count as Done (it was)|Send Again (it was not)',
		);
		expect(stepsAfterStop(contact, [0])).not.toContain('$itemIndex');
	});
});
