// The texts of a run that ends early: what a stopped run says it did before it
// stopped, and an item an earlier try carried out (run/outcome/reRunTexts.ts);
// and an item the breaker kept from being sent (run/outcome/serviceDownTexts.ts).
import { itemNumbers, namedItems } from '../../nodes/OutreachSequences/run/outcome/itemList.ts';
import { answerLostItem } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import { stepsAfterStop, stopText } from '../../nodes/OutreachSequences/run/outcome/stopTexts.ts';
import { serviceDownText } from '../../nodes/OutreachSequences/run/outcome/serviceDownTexts.ts';
import { contact, sequence } from './texts-helpers.mts';

describe('what a stopped run says it did before it stopped', () => {
	const none = { mayHave: [], notDone: [], neverSent: [] };

	test('item numbers as n8n counts them: runs of three or more as ranges, a count past five parts', () => {
		expect(itemNumbers([4])).toBe('4');
		expect(itemNumbers([2, 3])).toBe('2 and 3');
		expect(itemNumbers([2, 3, 5, 6, 7, 9])).toBe('2, 3, 5 to 7 and 9');
		expect(itemNumbers([0, 2, 4, 6, 8, 10, 11, 12])).toBe('0, 2, 4, 6, 8 and 3 more');
		expect(itemNumbers([0, 2, 4, 6, 8], 2)).toBe('0, 2 and 3 more');
	});

	test('as the hints name them: the first by its name, where it has one, then three parts and a count', () => {
		expect(namedItems([3], { 3: 'S4' })).toBe('item 3 ("S4")');
		expect(namedItems([3, 6], { 3: 'S4', 6: 'S7' })).toBe('items 3 ("S4") and 6');
		expect(namedItems([3, 6, 7, 8, 10, 12], { 3: 'S4' })).toBe(
			'items 3 ("S4"), 6 to 8, 10 and 1 more',
		);
		expect(namedItems([3, 6, 7, 8, 10, 12], {})).toBe('items 3, 6 to 8, 10 and 1 more');
		expect(namedItems([0], { 0: 'Spring follow-up for the Q3 accounts' })).toBe(
			'item 0 ("Spring follow-up for th…")',
		);
	});

	test('the scenario of a first Stop: the steps first, which name what may have been created; then 2 of 10 created, by name and ID; the rest never sent', () => {
		const done = [
			{ name: 'Seq 01', id: 'seq-1' },
			{ name: 'Seq 02', id: 'seq-2' },
		];
		const facts = { subject: sequence, items: 10, stoppedAt: 2, done };
		const mayHave = [2, 3];
		expect(
			stopText(
				{ ...facts, ...none, mayHave, neverSent: [4, 5, 6, 7, 8, 9] },
				{ text: stepsAfterStop(sequence, mayHave), namesMayHave: true },
			),
		).toBe(
			`To go on: check in the outreach service whether items 2 and 3 were created, set Request Options › Unconfirmed Earlier Try to Count as Done (they were) or Send Again (they were not), save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow: nothing created is sent again. Items that differ take an expression, for example {{ $itemIndex === 2 ? 'countAsDone' : 'sendAgain' }}. 2 of 10 sequences were created: "Seq 01" (seq-1), "Seq 02" (seq-2). Items 4 to 9 were never sent.`,
		);
	});

	test('a way on that does not name them: the items that may have been created are named after what was', () => {
		const text = stopText(
			{ subject: sequence, items: 3, stoppedAt: 1, done: [{ id: 'seq-1' }], ...none, mayHave: [1] },
			{ text: 'WAY ON', namesMayHave: false },
		);
		expect(text).toBe(
			'WAY ON 1 of 3 sequences was created: seq-1. Item 1 may have been created: the outreach service did not confirm it.',
		);
	});

	test('many done: five named, then a count; an item without a name by its ID; one that failed and was not done', () => {
		const done = Array.from({ length: 34 }, (_, index) => ({ id: `seq-${index + 1}` }));
		expect(
			stopText(
				{ subject: sequence, items: 40, stoppedAt: 23, done, ...none, notDone: [30] },
				{ text: 'WAY ON', namesMayHave: false },
			),
		).toBe(
			'WAY ON 34 of 40 sequences were created: seq-1, seq-2, seq-3, seq-4, seq-5 and 29 more. Item 30 failed and was not created.',
		);
	});

	test('one item, no IDs (an operation that changes nothing), one may have been, and the steps for one item', () => {
		const fetched = { noun: 'use case', verb: 'get', done: 'fetched' };
		expect(
			stopText(
				{ subject: fetched, items: 2, stoppedAt: 1, done: [{}], ...none },
				{ text: '', namesMayHave: false },
			),
		).toBe('1 of 2 use cases was fetched.');
		expect(stepsAfterStop(contact, [0])).toBe(
			'To go on: check in the outreach service whether item 0 was archived, set Request Options › Unconfirmed Earlier Try to Count as Done (it was) or Send Again (it was not), save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow: nothing archived is sent again.',
		);
	});

	test('an item carried out in an earlier try whose answer was not kept: its output, whatever the user says', () => {
		expect(answerLostItem(contact)).toEqual({
			skipped: true,
			id: 'c-42',
			reason:
				'The outreach service already archived contact "c-42" in an earlier try of this execution, so it was not sent again. Its answer was too large to keep with the execution: find it in the outreach service.',
		});
	});
});

describe('an item the breaker kept from being sent', () => {
	const down = { failed: 6, of: 6, labels: { timeout: 4, 'HTTP 502': 2 } };

	test('never sent: what happened and what to do first; why, in counts of what failed, in the details', () => {
		expect(serviceDownText(down, 0, undefined, sequence)).toEqual({
			message:
				'Not sent: the outreach service looked down, so the node stopped sending to it. Send the request to create the sequence once the service is back.',
			description:
				'The last 6 requests to the outreach service failed with no useful answer (4 timeouts and 2 answers with HTTP 502), the last of them a probe sent after a 1 second pause. This item never reached the service.',
		});
	});

	test('sent before: its own failure first, then why it was not sent again', () => {
		const last = {
			message: 'The outreach service failed (HTTP 502) to get use case "uc-1".',
			description: 'details',
		};
		const text = serviceDownText({ failed: 5, of: 8, labels: { reset: 5 } }, 1, last, {
			noun: 'use case',
			id: 'uc-1',
			verb: 'get',
			done: 'fetched',
		});
		expect(text).toEqual({
			message:
				'The outreach service failed (HTTP 502) to get use case "uc-1". The item was sent once, and not again: the outreach service looked down.',
			description:
				'5 of the last 8 requests to the outreach service failed with no useful answer (5 reset connections), the last of them a probe sent after a 1 second pause.\n\ndetails',
		});
	});
});
