// The texts of a run that ends early: what a stopped run says it did before it
// stopped, and an item an earlier try carried out (run/outcome/reRunTexts.ts);
// and an item the breaker kept from being sent (run/outcome/serviceDownTexts.ts).
import {
	answerLostItem,
	doneBeforeStopText,
	failedBeforeStopText,
} from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';
import { serviceDownText } from '../../nodes/OutreachSequences/run/outcome/serviceDownTexts.ts';
import { contact, sequence } from './texts-helpers.mts';

describe('what a stopped run says it did before it stopped', () => {
	test("the count in the operation's words, that n8n will not do them again, and a few IDs, then a count", () => {
		const ids = Array.from({ length: 34 }, (_, index) => `seq-${index + 1}`);
		expect(doneBeforeStopText({ subject: sequence, count: 34, ids }, 40, 23, true)).toBe(
			"34 of 40 sequences were created before item 23 failed. The service's answers are kept with this execution: when n8n runs the node again (Executions › Retry, or Retry On Fail), those are not created again. IDs: seq-1, seq-2, seq-3, seq-4, seq-5 and 29 more.",
		);
	});

	test('one item, no IDs, nothing kept (an operation that changes nothing)', () => {
		expect(
			doneBeforeStopText(
				{ subject: { noun: 'use case', verb: 'get', done: 'fetched' }, count: 1, ids: [] },
				2,
				1,
				false,
			),
		).toBe('1 of 2 use cases was fetched before item 1 failed.');
		expect(
			doneBeforeStopText({ subject: contact, count: 2, ids: ['c-1', 'c-2'] }, 3, 0, true),
		).toBe(
			"2 of 3 contacts were archived before item 0 failed. The service's answers are kept with this execution: when n8n runs the node again (Executions › Retry, or Retry On Fail), those are not archived again. IDs: c-1, c-2.",
		);
	});

	test('how many items failed before the stop, numbered as n8n numbers them beside the error, from 0', () => {
		expect(failedBeforeStopText([3])).toBeUndefined();
		expect(failedBeforeStopText([3, 6])).toBe('2 items failed: items 3, 6.');
		expect(failedBeforeStopText([0, 1, 2, 3, 4, 5, 9])).toBe(
			'7 items failed: items 0, 1, 2, 3, 4 and 2 more.',
		);
	});

	test('an item carried out in an earlier try whose answer was not kept: its output, whatever the user says', () => {
		expect(answerLostItem(contact, false)).toEqual({
			skipped: true,
			id: 'c-42',
			reason:
				'The outreach service already archived contact "c-42" in an earlier try of this execution, so it was not sent again. Its answer was too large to keep with the execution: find it in the outreach service.',
		});
		expect(answerLostItem(contact, true).reason).toBe(
			'The outreach service already archived contact "c-42" in an earlier try of this execution that n8n could not finish (it stopped or crashed), so it was not sent again. Its answer was lost with that try: find it in the outreach service.',
		);
	});
});

describe('an item the breaker kept from being sent', () => {
	const down = { failed: 6, of: 6, labels: { timeout: 4, 'HTTP 502': 2 } };

	test('never sent: why, in counts of what failed, and that it can be sent again later', () => {
		expect(serviceDownText(down, 0, undefined, sequence).message).toBe(
			'Not sent: the last 6 requests to the outreach service failed with no useful answer (4 timeouts and 2 answers with HTTP 502), the last of them a probe sent after a 1 second pause. The request to create the sequence was not sent; send it again once the service is back.',
		);
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
				'The outreach service failed (HTTP 502) to get use case "uc-1". The item was sent once; it was not sent again: 5 of the last 8 requests to the outreach service failed with no useful answer (5 reset connections), the last of them a probe sent after a 1 second pause.',
			description: 'details',
		});
	});
});
