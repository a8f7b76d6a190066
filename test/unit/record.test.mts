// The record (run/memory/record.ts): what earlier tries of an execution did with
// each item, kept in the node's context (here a plain object, as n8n's
// getContext('node') hands it over), and what it means for the item now.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { EarlierTry } from '../../nodes/OutreachSequences/run/memory/record.ts';
import {
	ExecutionRecord,
	MAX_RECORD_BYTES,
	RECORD_KEY,
	fingerprint,
	itemIdentity,
	priorOf,
} from '../../nodes/OutreachSequences/run/memory/record.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { unconfirmedFailedText } from '../../nodes/OutreachSequences/run/outcome/reRunTexts.ts';

const BASE = 'http://127.0.0.1:4010';
const create = (name: string, timezone?: string): OutreachRequest => ({
	method: 'POST',
	path: '/v1/sequences',
	body: JSON.stringify(timezone ? { name, timezone } : { name }),
	subject: { noun: 'sequence', verb: 'create', done: 'created' },
});
const scope = ['sequence.create', BASE, 'c1', '0'];
const identity = (index: number, name = `S${index}`) => itemIdentity(scope, index, { name });
const earlier = { message: 'm', description: 'd', statusCode: 500, networkError: null };
const keep = (store: object, nows: Array<EarlierTry | 'forget' | undefined>, runIndex = 0) =>
	new ExecutionRecord(store, runIndex, BASE).keep(
		nows.map((now, index) =>
			now && now !== 'forget' ? { request: create(`S${index}`), now } : now,
		),
		(index) => identity(index),
	);
const read = (store: object, index: number, request = create(`S${index}`), runIndex = 0) =>
	new ExecutionRecord(store, runIndex, BASE).earlierTry(index, identity(index), request)?.kind;
const confirmed = (id: unknown): EarlierTry => ({ kind: 'confirmed', answer: { id } as never });

test('each outcome is kept as such across a save; a changed request still finds its item, another input item does not', () => {
	const store: Record<string, unknown> = { other: 'kept' };
	keep(store, [confirmed('seq-1'), { kind: 'unknown', earlier }, { kind: 'countedAsDone' }]);
	const saved = JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
	expect([0, 1, 2].map((index) => read(saved, index))).toEqual([
		'confirmed',
		'unknown',
		'countedAsDone',
	]);
	const record = new ExecutionRecord(saved, 0, BASE);
	expect(record.earlierTry(0, identity(0), create('S0', 'UTC'))).toMatchObject({
		answer: { id: 'seq-1' },
		requestChanged: true,
	});
	expect(record.earlierTry(0, identity(0, 'S0 changed'), create('S0'))).toBeUndefined();
	expect(JSON.stringify(saved)).not.toMatch(/apiKey|X-API-Key/i);
	new ExecutionRecord(store, 0, BASE).drop();
	expect(store).toEqual({ other: 'kept' });
});

test('a refusal takes the entry out, an item not reached keeps its entry, run indexes stay apart, another shape reads as empty', () => {
	const store: Record<string, unknown> = { [RECORD_KEY]: { version: 99, runs: 'x' } };
	expect(new ExecutionRecord(store, 0, BASE).isEmpty).toBe(true);
	keep(store, [confirmed('seq-1'), confirmed('seq-2')]);
	keep(store, [confirmed('seq-5')], 1);
	keep(store, ['forget', undefined]);
	expect([read(store, 0), read(store, 1), read(store, 0, create('S0'), 1)]).toEqual([
		undefined,
		'confirmed',
		'confirmed',
	]);
	expect(new ExecutionRecord(store, 2, BASE).isEmpty).toBe(true);
});

test('past MAX_RECORD_BYTES an answer is kept as confirmed, without its text', () => {
	const store = {};
	const big = 'a'.repeat(1024 * 1024);
	expect(
		keep(
			store,
			Array.from({ length: 6 }, () => confirmed(big)),
		),
	).toBeLessThanOrEqual(MAX_RECORD_BYTES);
	expect([0, 1, 2, 3, 4, 5].map((index) => read(store, index))).toEqual([
		...['confirmed', 'confirmed', 'confirmed'],
		...['confirmedWithoutAnswer', 'confirmedWithoutAnswer', 'confirmedWithoutAnswer'],
	]);
});

test('the identity and the fingerprint differ for any change of what they hold', () => {
	const json = { name: 'S0' };
	const spring = create('Spring');
	const variants = [
		itemIdentity(scope, 0, json),
		...scope.map((_, at) =>
			itemIdentity(
				scope.map((p, i) => (i === at ? `${p}x` : p)),
				0,
				json,
			),
		),
		itemIdentity(scope, 1, json),
		itemIdentity(scope, 0, { name: 'S0', extra: null }),
		fingerprint(BASE, spring),
		fingerprint(`${BASE}/x`, spring),
		fingerprint(BASE, { ...spring, method: 'GET' }),
		fingerprint(BASE, { ...spring, path: '/v1/x' }),
		fingerprint(BASE, create('Spring ')),
	];
	expect(new Set(variants).size).toBe(variants.length);
});

const archive = {
	method: 'POST' as const,
	path: '/v1/contacts/c-42/archive',
	subject: { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' },
};
const broken = new Error('x is not defined');
const unknown: EarlierTry = { kind: 'unknown', earlier };
const skipped = { skipped: true, id: 'c-42', reason: expect.any(String) };
const failed = { kind: 'unknownBefore', request: archive, earlier, itemIndex: 3 };

test.each<[string, EarlierTry | undefined, unknown, object | undefined]>([
	['nothing earlier: send', undefined, 'fail', undefined],
	[
		'confirmed: the earlier answer',
		confirmed('c-42'),
		'sendAgain',
		{ kind: 'answer', json: { id: 'c-42' }, event: 'answered' },
	],
	[
		'confirmed, the request changed since: kept',
		{ ...confirmed('c-42'), requestChanged: true },
		broken,
		{ kind: 'answer', json: { id: 'c-42' }, event: 'kept' },
	],
	// Confirmed is final: never sent, whatever the user says, and a broken say can't keep it from its output.
	...[
		['sendAgain', 'confirmedWithoutAnswer', 'answerLost'],
		[broken, 'confirmedWithoutAnswer', 'answerLost'],
		['sendAgain', 'countedAsDone', 'countedAsDone'],
	].map(([say, kind, event]): [string, EarlierTry, unknown, object] => [
		`${String(kind)} before`,
		{ kind } as EarlierTry,
		say,
		{ kind: 'answer', json: skipped, event },
	]),
	[
		'unknown, by default (or any other value)',
		unknown,
		'yes',
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
	const prior = priorOf(before, archive, 3, () => {
		if (say instanceof Error) throw say;
		return say;
	});
	expect(prior).toEqual(expected);
	// Sent in an earlier try: whatever the say, the service may have acted.
	if (prior?.kind === 'fail')
		expect(failureFacts(prior.failure)).toMatchObject({ timesSent: 0, outcome: 'mayHaveActed' });
});

test('a say that failed: the option failed for this item and what to do; the earlier words in the details', () => {
	const text = unconfirmedFailedText({ message: 'Earlier.', description: 'Details.' }, broken);
	expect(text.message).toBe(
		'Not sent: the expression in Request Options › Unconfirmed Earlier Try failed for this item (x is not defined). Fix it so that it gives fail, sendAgain or countAsDone for this item, save (n8n 2.x saves on its own), and use Executions › Retry with the currently saved workflow.',
	);
	expect(text.description).toMatch(/Earlier\.\n\nDetails\.$/);
});
