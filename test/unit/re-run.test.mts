// What a run does before sending an item an earlier try or execution handled
// (run/memory/reRun.ts), and what the record keeps of each item at the end of
// a try (run/memory/memory.ts › forRecord).
import type { ItemState } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { forRecord } from '../../nodes/OutreachSequences/run/memory/memory.ts';
import { priorOf, unconfirmedOf } from '../../nodes/OutreachSequences/run/memory/reRun.ts';
import type { EarlierFailure } from '../../nodes/OutreachSequences/run/memory/record.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { unconfirmedFailedText } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';

const request = {
	method: 'POST' as const,
	path: '/v1/contacts/c-42/archive',
	subject: { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' },
};
const earlier: EarlierFailure = {
	message: 'The outreach service failed (HTTP 500).',
	description: 'd',
	statusCode: 500,
	networkError: null,
};
const never = () => {
	throw new Error('the user’s say is read only when it is needed');
};

describe('priorOf', () => {
	test('nothing earlier: send', () => {
		expect(priorOf(undefined, request, 0, never)).toBeUndefined();
	});

	test('confirmed: the earlier answer, "kept" when the request changed since', () => {
		expect(
			priorOf(
				{ kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: false },
				request,
				0,
				never,
			),
		).toEqual({
			kind: 'answer',
			json: { id: 'c-42' },
			event: 'answered',
		});
		expect(
			priorOf(
				{ kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: true },
				request,
				0,
				never,
			)?.event,
		).toBe('kept');
	});

	test('unknown, by default: fails again, unsent, with the earlier words and its index', () => {
		expect(priorOf({ kind: 'unknown', earlier }, request, 3, () => 'fail')).toEqual({
			kind: 'fail',
			failure: { kind: 'unknownBefore', request, earlier, itemIndex: 3 },
			event: 'failedAgain',
		});
	});

	test('the user’s say: send it again, or count it as done (no ID is known for a create, the path’s for an archive)', () => {
		expect(priorOf({ kind: 'unknown', earlier }, request, 0, () => 'sendAgain')).toEqual({
			kind: 'send',
			event: 'sentAgain',
		});
		expect(priorOf({ kind: 'unknown', earlier }, request, 0, () => 'countAsDone')).toEqual({
			kind: 'answer',
			json: { skipped: true, id: 'c-42', reason: expect.stringContaining('Counted as done') },
			event: 'countedAsDone',
		});
		const create = { ...request, subject: { noun: 'sequence', verb: 'create', done: 'created' } };
		expect(priorOf({ kind: 'countedAsDone' }, create, 0, never)?.event).toBe('countedAsDone');
	});

	test.each(['fail', 'sendAgain', 'countAsDone'] as const)(
		'confirmed without an answer (too large to keep) is final: never sent, whatever the user says (%s)',
		(said) => {
			let asked = false;
			const ask = () => {
				asked = true;
				return said;
			};
			expect(priorOf({ kind: 'confirmedWithoutAnswer' }, request, 2, ask)).toMatchObject({
				kind: 'answer',
				json: { skipped: true, id: 'c-42' },
				event: 'answerLost',
			});
			expect(asked).toBe(false);
		},
	);

	test('a say whose expression fails for this item fails that item alone, unsent, as Fail would, with the error', () => {
		const broken = new Error("Cannot read properties of undefined (reading 'x')");
		const throws = () => {
			throw broken;
		};
		expect(priorOf({ kind: 'unknown', earlier }, request, 3, throws)).toEqual({
			kind: 'fail',
			failure: { kind: 'unknownBefore', request, earlier, itemIndex: 3, unconfirmedError: broken },
			event: 'failedAgain',
		});
		// It was sent in an earlier try: whatever the say, the facts say the service may have acted.
		const failed = priorOf({ kind: 'unknown', earlier }, request, 2, throws);
		if (failed?.kind !== 'fail') throw new Error('not a failure');
		expect(failureFacts(failed.failure)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
		// A confirmed item is answered without asking: a broken say can't keep it from its output.
		expect(priorOf({ kind: 'confirmedWithoutAnswer' }, request, 2, throws)).toMatchObject({
			kind: 'answer',
			event: 'answerLost',
		});
	});

	test('its text says the option failed for this item and what to do; the earlier words go in the details', () => {
		const text = unconfirmedFailedText(
			{ message: 'Earlier words.', description: 'Earlier details.' },
			new Error('x is not defined'),
		);
		expect(text.message).toBe(
			'Not sent: the expression in Request Options › Unconfirmed Earlier Try failed for this item (x is not defined). Fix it so that it gives fail, sendAgain or countAsDone for this item, save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow.',
		);
		expect(text.description).toMatch(/Earlier words\.\n\nEarlier details\.$/);
	});

	test('anything but the two other values is "fail", which sends nothing', () => {
		expect(
			['sendAgain', 'countAsDone', 'fail', 'yes', '', undefined, 1].map(unconfirmedOf),
		).toEqual(['sendAgain', 'countAsDone', 'fail', 'fail', 'fail', 'fail', 'fail']);
	});
});

describe('forRecord', () => {
	const http = (status: number) => ({
		kind: 'http' as const,
		status,
		method: 'POST' as const,
		retryAfter: false,
		answer: { statusCode: status, headers: {}, body: '' },
	});
	const gaveUp = (status: number): ItemState => ({
		state: 'failed',
		failure: { kind: 'gaveUp', request, failure: http(status), sends: 1, reason: 'notSafe' },
	});

	test('what the service confirmed is kept with its answer; a count as done as such', () => {
		expect(
			forRecord({ state: 'done', request, json: { id: 'c-42' }, sends: 1 }, undefined, undefined),
		).toEqual({
			request,
			now: { kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: false },
		});
		expect(
			forRecord({ state: 'done', request, json: {}, sends: 0 }, 'countedAsDone', undefined),
		).toEqual({
			request,
			now: { kind: 'countedAsDone' },
		});
		expect(
			forRecord({ state: 'done', request, json: {}, sends: 0 }, 'kept', undefined),
		).toBeUndefined();
	});

	test('a 5xx on a write is kept as unknown with its words; a refusal is forgotten', () => {
		expect(forRecord(gaveUp(500), undefined, earlier)).toEqual({
			request,
			now: { kind: 'unknown', earlier },
		});
		expect(forRecord(gaveUp(404), undefined, earlier)).toBe('forget');
	});

	test('what the record already holds stays as it is for an item this try failed unsent or did not reach', () => {
		const failed: ItemState = {
			state: 'failed',
			failure: { kind: 'unknownBefore', request, earlier, itemIndex: 0 },
		};
		expect(forRecord(failed, 'failedAgain', undefined)).toBeUndefined();
		expect(forRecord({ state: 'pending' }, undefined, undefined)).toBeUndefined();
	});
});
