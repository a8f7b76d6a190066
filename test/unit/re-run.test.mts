// What a run does before sending an item an earlier try or execution handled
// (run/outcome/reRun.ts), and what the record keeps of each item at the end of
// a try (run/n8n/memoryParts.ts › forRecord).
import type { ItemState } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { forRecord } from '../../nodes/OutreachSequences/run/n8n/memoryParts.ts';
import {
	keyPriorOf,
	priorOf,
	unconfirmedOf,
} from '../../nodes/OutreachSequences/run/outcome/reRun.ts';
import type { EarlierFailure } from '../../nodes/OutreachSequences/run/outcome/record.ts';

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
		expect(
			priorOf({ kind: 'confirmedWithoutAnswer', crashed: true }, create, 0, () => 'countAsDone'),
		).toMatchObject({ kind: 'answer', json: { skipped: true, id: null } });
		expect(priorOf({ kind: 'countedAsDone' }, create, 0, never)?.event).toBe('countedAsDone');
	});

	test('confirmed without an answer (too large, or a crash): fails as carriedOutBefore unless the user says', () => {
		expect(
			priorOf({ kind: 'confirmedWithoutAnswer', crashed: true }, request, 2, () => 'fail'),
		).toMatchObject({
			kind: 'fail',
			failure: { kind: 'carriedOutBefore', crashed: true, itemIndex: 2 },
		});
	});

	test('anything but the two other values is "fail", which sends nothing', () => {
		expect(
			['sendAgain', 'countAsDone', 'fail', 'yes', '', undefined, 1].map(unconfirmedOf),
		).toEqual(['sendAgain', 'countAsDone', 'fail', 'fail', 'fail', 'fail', 'fail']);
	});
});

test('keyPriorOf: done before is a skipped item with its key; unknown (another run met the key) waits for the user; send is nothing', () => {
	expect(keyPriorOf('doneBefore', 'k', request, 60 * 60_000, 0, never)).toEqual({
		kind: 'answer',
		json: {
			skipped: true,
			key: 'k',
			id: 'c-42',
			reason: expect.stringContaining('(Request Options › Skip Items Done Before, Window 1 hour)'),
		},
		event: 'keyDoneBefore',
	});
	expect(keyPriorOf('unknownBefore', 'k', request, 1, 4, () => 'fail')).toMatchObject({
		kind: 'fail',
		failure: { kind: 'unknownBefore', itemIndex: 4, earlier: { key: 'k' } },
	});
	expect(keyPriorOf('unknownBefore', 'k', request, 1, 4, () => 'sendAgain')).toEqual({
		kind: 'send',
		event: 'sentAgain',
	});
	expect(keyPriorOf('send', 'k', request, 1, 0, never)).toBeUndefined();
});

describe('forRecord', () => {
	const http = (status: number) => ({
		kind: 'http' as const,
		status,
		answer: { statusCode: status, headers: {}, body: '' },
	});
	const gaveUp = (status: number): ItemState => ({
		state: 'failed',
		failure: { kind: 'gaveUp', request, failure: http(status), sends: 1, reason: 'notSafe' },
	});

	test('what the service confirmed is kept with its answer; a count as done as such', () => {
		expect(
			forRecord(
				{ state: 'done', request, json: { id: 'c-42' }, sends: 1 },
				undefined,
				false,
				undefined,
			),
		).toEqual({
			request,
			now: { kind: 'confirmed', answer: { id: 'c-42' }, requestChanged: false },
		});
		expect(
			forRecord({ state: 'done', request, json: {}, sends: 0 }, 'countedAsDone', false, undefined),
		).toEqual({
			request,
			now: { kind: 'countedAsDone' },
		});
		expect(
			forRecord({ state: 'done', request, json: {}, sends: 0 }, 'kept', false, undefined),
		).toBeUndefined();
	});

	test('a 5xx on a write is kept as unknown with its words; a refusal is forgotten', () => {
		expect(forRecord(gaveUp(500), undefined, false, earlier)).toEqual({
			request,
			now: { kind: 'unknown', earlier },
		});
		expect(forRecord(gaveUp(404), undefined, false, earlier)).toBe('forget');
	});

	test('what a crashed try left is written to the record, since the journal is cleared; the record’s own stays', () => {
		const crashed = { ...earlier, crashed: true as const };
		const failed: ItemState = {
			state: 'failed',
			failure: { kind: 'unknownBefore', request, earlier: crashed, itemIndex: 0 },
		};
		expect(forRecord(failed, 'failedAgain', true, undefined)).toEqual({
			request,
			now: { kind: 'unknown', earlier: crashed },
		});
		expect(forRecord(failed, 'failedAgain', false, undefined)).toBeUndefined();
		expect(forRecord({ state: 'pending' }, undefined, false, undefined)).toBeUndefined();
	});
});
