// What a run does with an item an earlier try or execution handled
// (run/memory/reRun.ts). What the record keeps of each item at a try's end:
// test/engine/re-runs.test.mts, crash.test.mts.
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
