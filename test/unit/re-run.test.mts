// What a run does with an item an earlier try or execution handled
// (run/memory/reRun.ts), and what the record keeps of each item at the end of
// a try (run/memory/memory.ts › forRecord).
import type { ItemState } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { forRecord } from '../../nodes/OutreachSequences/run/memory/memory.ts';
import { priorOf, unconfirmedOf } from '../../nodes/OutreachSequences/run/memory/reRun.ts';
import type { EarlierTry } from '../../nodes/OutreachSequences/run/memory/record.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { unconfirmedFailedText } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';

const request = {
	method: 'POST' as const,
	path: '/v1/contacts/c-42/archive',
	subject: { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' },
};
const earlier = { message: 'm', description: 'd', statusCode: 500, networkError: null };
const broken = new Error('x is not defined');
const unknown: EarlierTry = { kind: 'unknown', earlier };
const skipped = { skipped: true, id: 'c-42', reason: expect.any(String) };
const failed = { kind: 'unknownBefore', request, earlier, itemIndex: 3 };

test.each<[string, EarlierTry | undefined, string | Error, object | undefined]>([
	['nothing earlier: send', undefined, 'fail', undefined],
	[
		'confirmed: the earlier answer',
		{ kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: false },
		'sendAgain',
		{ kind: 'answer', json: { id: 'c-42' }, event: 'answered' },
	],
	[
		'confirmed, the request changed since: kept',
		{ kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: true },
		broken,
		{ kind: 'answer', json: { id: 'c-42' }, event: 'kept' },
	],
	// Confirmed is final: never sent, whatever the user says, and a broken say can't keep it from its output.
	...(['sendAgain', broken] as const).map((say): [string, EarlierTry, string | Error, object] => [
		'confirmed without its answer (too large to keep)',
		{ kind: 'confirmedWithoutAnswer' },
		say,
		{ kind: 'answer', json: skipped, event: 'answerLost' },
	]),
	[
		'counted as done before',
		{ kind: 'countedAsDone' },
		'sendAgain',
		{ kind: 'answer', json: skipped, event: 'countedAsDone' },
	],
	[
		'unknown, by default: fails unsent',
		unknown,
		'fail',
		{ kind: 'fail', failure: failed, event: 'failedAgain' },
	],
	['unknown, Send Again', unknown, 'sendAgain', { kind: 'send', event: 'sentAgain' }],
	[
		'unknown, Count as Done',
		unknown,
		'countAsDone',
		{ kind: 'answer', json: skipped, event: 'countedAsDone' },
	],
	[
		'unknown, a say whose expression fails for this item: fails that item alone, with the error',
		unknown,
		broken,
		{ kind: 'fail', failure: { ...failed, unconfirmedError: broken }, event: 'failedAgain' },
	],
])('%s (say: %s)', (_, before, say, expected) => {
	const choice = () => {
		if (say instanceof Error) throw say;
		return unconfirmedOf(say);
	};
	const prior = priorOf(before, request, 3, choice);
	expect(prior).toEqual(expected);
	// Sent in an earlier try: whatever the say, the service may have acted.
	if (prior?.kind === 'fail')
		expect(failureFacts(prior.failure)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
});

test('anything but the two other values is "fail", which sends nothing', () => {
	expect(['sendAgain', 'countAsDone', 'fail', 'yes', '', undefined, 1].map(unconfirmedOf)).toEqual([
		'sendAgain',
		'countAsDone',
		'fail',
		'fail',
		'fail',
		'fail',
		'fail',
	]);
});

test('a say that failed: the option failed for this item and what to do; the earlier words in the details', () => {
	const text = unconfirmedFailedText({ message: 'Earlier.', description: 'Details.' }, broken);
	expect(text.message).toBe(
		'Not sent: the expression in Request Options › Unconfirmed Earlier Try failed for this item (x is not defined). Fix it so that it gives fail, sendAgain or countAsDone for this item, save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow.',
	);
	expect(text.description).toMatch(/Earlier\.\n\nDetails\.$/);
});

const gaveUp = (status: number): ItemState => ({
	state: 'failed',
	failure: {
		kind: 'gaveUp',
		request,
		sends: 1,
		reason: 'notSafe',
		failure: {
			kind: 'http',
			status,
			method: 'POST',
			retryAfter: false,
			answer: { statusCode: status, headers: {}, body: '' },
		},
	},
});

test.each<[string, ItemState, string | undefined, unknown]>([
	[
		'confirmed: kept with its answer',
		{ state: 'done', request, json: { id: 'c-42' }, sends: 1 },
		undefined,
		{ request, now: { kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: false } },
	],
	[
		'counted as done: as such',
		{ state: 'done', request, json: {}, sends: 0 },
		'countedAsDone',
		{ request, now: { kind: 'countedAsDone' } },
	],
	[
		'kept from before: as it was',
		{ state: 'done', request, json: {}, sends: 0 },
		'kept',
		undefined,
	],
	[
		'a 5xx on a write: unknown, with its words',
		gaveUp(500),
		undefined,
		{ request, now: { kind: 'unknown', earlier } },
	],
	['a refusal: forgotten, so it goes out again', gaveUp(404), undefined, 'forget'],
	[
		'failed unsent again: as it was',
		{ state: 'failed', failure: failed as never },
		'failedAgain',
		undefined,
	],
	['not reached: as it was', { state: 'pending' }, undefined, undefined],
])('the record keeps of an item %s', (_, item, event, expected) => {
	expect(forRecord(item, event as never, earlier)).toEqual(expected);
});
