// What the error that stops a run (On Error = Stop) says before its details
// (run/n8n/stopError.ts), from each item's end: the way on, what was done by
// name and ID, what may have been, what failed and what was never sent; and
// the Retry On Fail warning after them. The engine suites assert what the run
// did; the words are asserted here (their parts: texts-stop.test.mts).
import type { ItemState } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import type { Failure } from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import {
	withDoneBeforeStop,
	withRetryOnFailWarning,
} from '../../nodes/OutreachSequences/run/n8n/stopError.ts';

const subject = { noun: 'sequence', verb: 'create', done: 'created' };
const request = (index: number) => ({
	method: 'POST' as const,
	path: '/v1/sequences',
	body: `{"name":"S${index + 1}"}`,
	subject: { ...subject, name: `S${index + 1}` },
});
const answered = (status: number): Failure => {
	const attempt = attemptOf({ statusCode: status, body: { message: 'x' }, headers: {} }, 0, 'POST');
	if (attempt.ok) throw new Error('a success');
	return attempt.failure;
};
const done = (index: number): ItemState => ({
	state: 'done',
	request: request(index),
	json: { id: `seq-${index + 1}`, name: `S${index + 1}` },
	sends: 1,
});
const failed = (index: number, status: number): ItemState => ({
	state: 'failed',
	failure: {
		kind: 'gaveUp',
		request: request(index),
		failure: answered(status),
		sends: 1,
		reason: 'notSafe',
	},
});
const pending: ItemState = { state: 'pending' };
type Described = Error & { description?: string | null };
const setting = { retryOnFail: false, readOnly: false, subject };
const stop = (items: ItemState[], stoppedAt: number, more = {}) =>
	withDoneBeforeStop(new Error('what failed') as Described, items, stoppedAt, {
		...setting,
		...more,
	}).description;

test('items the service may have carried out: the steps name them; then what was created, by name and ID; then what was never sent', () => {
	const items = [done(0), done(1), done(2), failed(3, 500), done(4), done(5), failed(6, 500)];
	expect(stop([...items, pending, pending, pending], 3)).toBe(
		`To go on: check in the outreach service whether items 3 and 6 were created, set Request Options › Unconfirmed Earlier Try to Count as Done (they were) or Send Again (they were not), save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow: nothing created is sent again. Items that differ take an expression, for example {{ $itemIndex === 3 ? 'countAsDone' : 'sendAgain' }}. 5 of 10 sequences were created: "S1" (seq-1), "S2" (seq-2), "S3" (seq-3), "S5" (seq-5), "S6" (seq-6). Items 7 to 9 were never sent.`,
	);
});

test('a refused item: the safe way on, as the memory has it; every created one counted, five named; one that failed and was not created', () => {
	const items = Array.from(
		{ length: 40 },
		(_, index): ItemState =>
			index === 23
				? failed(23, 400)
				: index === 30
					? failed(30, 422)
					: index > 33
						? pending
						: done(index),
	);
	expect(stop(items, 23, { windowMs: 3_600_000 })).toBe(
		'Executions › Retry keeps what was already created, and so does running the workflow again within 1 hour. 32 of 40 sequences were created: "S1" (seq-1), "S2" (seq-2), "S3" (seq-3), "S4" (seq-4), "S5" (seq-5) and 27 more. Item 30 failed and was not created. Items 34 to 39 were never sent.',
	);
	expect(stop([failed(0, 400), pending], 0)).toBe(
		'Executions › Retry keeps what was already created; running the workflow again creates it again, as this workflow is not saved. Item 1 was never sent.',
	);
});

test('stopped on an item an earlier try left unknown: its message has the steps, so the error names it after what was created', () => {
	const unknown: ItemState = {
		state: 'failed',
		failure: {
			kind: 'unknownBefore',
			request: request(1),
			earlier: { message: 'm', description: 'd', statusCode: 500, networkError: null },
			itemIndex: 1,
		},
	};
	expect(stop([done(0), unknown, pending], 1, { windowMs: 3_600_000 })).toBe(
		'Executions › Retry keeps what was already created, and so does running the workflow again within 1 hour. 1 of 3 sequences was created: "S1" (seq-1). Item 1 may have been created: the outreach service did not confirm it. Item 2 was never sent.',
	);
});

test('an operation that changes nothing: no way on, only what was fetched', () => {
	const useCase = { noun: 'use case', id: 'uc-1', verb: 'get', done: 'fetched' };
	const fetched: ItemState = {
		state: 'done',
		request: { method: 'GET', path: '/v1/use_cases/uc-1', subject: useCase },
		json: { id: 'uc-1' },
		sends: 1,
	};
	const error = Object.assign(new Error('what failed'), { description: 'The details.' });
	const stopped = withDoneBeforeStop(error, [fetched, failed(1, 500)], 1, {
		...setting,
		readOnly: true,
		subject: useCase,
	});
	expect(stopped.description).toBe('1 of 2 use cases was fetched: uc-1.\n\nThe details.');
});

test('with Retry On Fail on, the warning comes after the details; not for an operation that changes nothing', () => {
	const error = Object.assign(new Error('what failed'), { description: 'The details.' });
	expect(withRetryOnFailWarning(error, { ...setting, retryOnFail: true }).description).toBe(
		'The details.\n\nRetry On Fail is on: n8n runs this node again with every item, and only items the service refused go out again. The node resends what the service pushed back on by itself.',
	);
	const read = Object.assign(new Error('x'), { description: 'd' });
	expect(
		withRetryOnFailWarning(read, { ...setting, retryOnFail: true, readOnly: true }).description,
	).toBe('d');
});
