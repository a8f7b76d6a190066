// What the error that stops a run (On Error = Stop) says before its details
// (run/n8n/stopError.ts with run/outcome/reRunTexts.ts' stopText), from each
// item's end: the way on, what was done by name and ID, what failed and what
// was never sent; and the Retry On Fail warning after them.
import type { ItemState } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import {
	withDoneBeforeStop,
	withRetryOnFailWarning,
} from '../../nodes/OutreachSequences/run/n8n/stopError.ts';

const subject = { noun: 'sequence', verb: 'create', done: 'created' };
const request = (index: number) => ({
	method: 'POST' as const,
	path: '/v1/sequences',
	subject: { ...subject, name: `S${index + 1}` },
});
const done = (index: number): ItemState => ({
	state: 'done',
	request: request(index),
	json: { id: `seq-${index + 1}` },
	sends: 1,
});
const failed = (index: number, status: number): ItemState => {
	const attempt = attemptOf({ statusCode: status, body: {}, headers: {} }, 0, 'POST');
	if (attempt.ok) throw new Error('a success');
	const failure = attempt.failure;
	return {
		state: 'failed',
		failure: { kind: 'gaveUp', request: request(index), failure, sends: 1, reason: 'notSafe' },
	};
};
const earlier = { message: 'm', description: 'd', statusCode: 500, networkError: null };
const unknown = (index: number): ItemState => ({
	state: 'failed',
	failure: { kind: 'unknownBefore', request: request(index), earlier, itemIndex: index },
});
const pending: ItemState = { state: 'pending' };
const setting = { retryOnFail: false, readOnly: false, subject };
const HOUR = 3_600_000;
const forty = Array.from({ length: 40 }, (_, index): ItemState => {
	if (index === 23 || index === 30) return failed(index, 400);
	return index > 33 ? pending : done(index);
});
const ten = [done(0), done(1), done(2), failed(3, 500), done(4), failed(6, 500), pending, pending];

test.each<[string, ItemState[], number, number | undefined, string]>([
	[
		'what the service may have carried out: the steps for them first, then what was created and never sent',
		ten,
		3,
		undefined,
		`Check in the outreach service whether items 3 and 5 were created, set Request Options › Unconfirmed Earlier Try to Count as Done (they were) or Send Again (they were not), save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow: nothing created is sent again. For one item alone: {{ $itemIndex === 3 ? 'countAsDone' : 'fail' }}. 4 of 8 sequences were created: "S1" (seq-1), "S2" (seq-2), "S3" (seq-3), "S5" (seq-5). Items 6 and 7 were never sent.`,
	],
	[
		'a refused item: the safe way on, as the memory has it; five named; the other that failed',
		forty,
		23,
		HOUR,
		'Executions › Retry keeps what was already created, and so does running the workflow again within 1 hour. 32 of 40 sequences were created: "S1" (seq-1), "S2" (seq-2), "S3" (seq-3), "S4" (seq-4), "S5" (seq-5) and 27 more. Item 30 failed and was not created. Items 34 to 39 were never sent.',
	],
	[
		'an unsaved workflow: running again creates it again',
		[failed(0, 400), pending],
		0,
		undefined,
		'Executions › Retry keeps what was already created; running the workflow again creates it again, as this workflow is not saved. Item 1 was never sent.',
	],
	[
		'stopped on an item an earlier try left unknown: its own error has the steps',
		[done(0), unknown(1), pending],
		1,
		HOUR,
		'Executions › Retry keeps what was already created, and so does running the workflow again within 1 hour. 1 of 3 sequences was created: "S1" (seq-1). Item 2 was never sent.',
	],
])('%s', (_, items, stoppedAt, windowMs, expected) => {
	const error = Object.assign(new Error('what failed'), { description: 'The details.' });
	const stopped = withDoneBeforeStop(error, items, stoppedAt, { ...setting, windowMs });
	expect(stopped.description).toBe(`${expected}\n\nThe details.`);
});

test('an operation that changes nothing: only what was fetched, and no Retry On Fail warning; a write gets it after the details', () => {
	const useCase = { noun: 'use case', id: 'uc-1', verb: 'get', done: 'fetched' };
	const fetched: ItemState = {
		state: 'done',
		request: { method: 'GET', path: '/v1/use_cases/uc-1', subject: useCase },
		json: { id: 'uc-1' },
		sends: 1,
	};
	const read = { retryOnFail: true, readOnly: true, subject: useCase };
	const error = Object.assign(new Error('what failed'), { description: 'The details.' });
	const stopped = withDoneBeforeStop(error, [fetched, failed(1, 500), failed(2, 500)], 1, read);
	expect(withRetryOnFailWarning(stopped, read).description).toBe(
		'1 of 3 use cases was fetched: uc-1. Item 2 failed and was not fetched.\n\nThe details.',
	);
	const write = withRetryOnFailWarning(
		Object.assign(new Error('what failed'), { description: '' }),
		{ ...setting, retryOnFail: true },
	);
	expect(write.description).toMatch(/^Retry On Fail is on: /);
});
