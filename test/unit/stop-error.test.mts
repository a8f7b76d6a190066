// What the error that stops a run (On Error = Stop) says before its details
// (run/n8n/stopError.ts), from each item's end: the way on, what was done by
// name and ID, what may have been, what failed and what was never sent; and
// the Retry On Fail warning after them (their parts: texts-re-run.test.mts).
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
	const attempt = attemptOf({ statusCode: status, body: { message: 'x' }, headers: {} }, 0, 'POST');
	if (attempt.ok) throw new Error('a success');
	const failure = attempt.failure;
	return {
		state: 'failed',
		failure: { kind: 'gaveUp', request: request(index), failure, sends: 1, reason: 'notSafe' },
	};
};
const unknown: ItemState = {
	state: 'failed',
	failure: {
		kind: 'unknownBefore',
		request: request(1),
		earlier: { message: 'm', description: 'd', statusCode: 500, networkError: null },
		itemIndex: 1,
	},
};
const pending: ItemState = { state: 'pending' };
const setting = { retryOnFail: false, readOnly: false, subject };
const HOUR = 3_600_000;
const forty = Array.from({ length: 40 }, (_, index): ItemState => {
	if (index === 23 || index === 30) return failed(index, 400);
	return index > 33 ? pending : done(index);
});

test.each<[string, ItemState[], number, number | undefined, string]>([
	[
		'items the service may have carried out: the steps name them; then what was created; then what was never sent',
		[
			done(0),
			done(1),
			done(2),
			failed(3, 500),
			done(4),
			done(5),
			failed(6, 500),
			pending,
			pending,
			pending,
		],
		3,
		undefined,
		`To go on: check in the outreach service whether items 3 and 6 were created, set Request Options › Unconfirmed Earlier Try to Count as Done (they were) or Send Again (they were not), save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow: nothing created is sent again. Items that differ take an expression, for example {{ $itemIndex === 3 ? 'countAsDone' : 'sendAgain' }}. 5 of 10 sequences were created: "S1" (seq-1), "S2" (seq-2), "S3" (seq-3), "S5" (seq-5), "S6" (seq-6). Items 7 to 9 were never sent.`,
	],
	[
		'a refused item: the safe way on, as the memory has it; five named; one that failed and was not created',
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
		'stopped on an item an earlier try left unknown: its own message has the steps',
		[done(0), unknown, pending],
		1,
		HOUR,
		'Executions › Retry keeps what was already created, and so does running the workflow again within 1 hour. 1 of 3 sequences was created: "S1" (seq-1). Item 1 may have been created: the outreach service did not confirm it. Item 2 was never sent.',
	],
])('%s', (_, items, stoppedAt, windowMs, expected) => {
	const error = withDoneBeforeStop(new Error('what failed'), items, stoppedAt, {
		...setting,
		windowMs,
	});
	expect((error as { description?: string }).description).toBe(expected);
});

test('an operation that changes nothing: only what was fetched, before the details, and no Retry On Fail warning', () => {
	const useCase = { noun: 'use case', id: 'uc-1', verb: 'get', done: 'fetched' };
	const fetched: ItemState = {
		state: 'done',
		request: { method: 'GET', path: '/v1/use_cases/uc-1', subject: useCase },
		json: { id: 'uc-1' },
		sends: 1,
	};
	const read = { retryOnFail: true, readOnly: true, subject: useCase };
	const error = Object.assign(new Error('what failed'), { description: 'The details.' });
	const stopped = withDoneBeforeStop(error, [fetched, failed(1, 500)], 1, read);
	expect(withRetryOnFailWarning(stopped, read).description).toBe(
		'1 of 2 use cases was fetched: uc-1.\n\nThe details.',
	);
});

test('with Retry On Fail on, the warning comes after the details', () => {
	const error = Object.assign(new Error('what failed'), { description: 'The details.' });
	expect(withRetryOnFailWarning(error, { ...setting, retryOnFail: true }).description).toBe(
		'The details.\n\nRetry On Fail is on: n8n runs this node again with every item, and only items the service refused go out again. The node resends what the service pushed back on by itself.',
	);
});
