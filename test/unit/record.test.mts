// The record (run/memory/record.ts): what earlier tries of an execution did
// with each item, kept in the node's context, read back when n8n runs the node
// again. Here over a plain object, as n8n's getContext('node') hands it over.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { ItemForRecord } from '../../nodes/OutreachSequences/run/memory/record.ts';
import {
	ExecutionRecord,
	MAX_RECORD_BYTES,
	RECORD_KEY,
	fingerprint,
	itemIdentity,
} from '../../nodes/OutreachSequences/run/memory/record.ts';

const BASE = 'http://127.0.0.1:4010';
const create = (name: string, timezone?: string): OutreachRequest => ({
	method: 'POST',
	path: '/v1/sequences',
	body: JSON.stringify(timezone ? { name, timezone } : { name }),
	subject: { noun: 'sequence', verb: 'create', done: 'created' },
});
const scope = ['sequence.create', BASE, 'c1', '0'];
const identity = (index: number, name = `S${index}`) => itemIdentity(scope, index, { name });
const confirmed = (name: string, answer: object): ItemForRecord => ({
	request: create(name),
	now: { kind: 'confirmed', answer: answer as never, requestChanged: false },
});
const earlier = { message: 'It failed.', description: 'd', statusCode: 500, networkError: null };
const keep = (store: object, items: ItemForRecord[], runIndex = 0) =>
	new ExecutionRecord(store, runIndex, BASE).keep(items, (index) => identity(index));
const read = (store: object, index: number, request = create(`S${index}`), runIndex = 0) =>
	new ExecutionRecord(store, runIndex, BASE).earlierTry(index, identity(index), request);

test('a confirmed item: its answer unchanged, also when its request changed since; another input item is another item', () => {
	const store = {};
	const answer = { id: 'seq-1', name: 'S0', schedules: [{ dayOffset: 1 }], status: null };
	keep(store, [confirmed('S0', answer)]);
	expect(read(store, 0)).toEqual({ kind: 'confirmed', answer, requestChanged: false });
	expect(read(store, 0, create('S0', 'Europe/Paris'))).toMatchObject({ requestChanged: true });
	const record = new ExecutionRecord(store, 0, BASE);
	expect(record.earlierTry(0, identity(0, 'S0 changed'), create('S0'))).toBeUndefined();
	expect(read(store, 1)).toBeUndefined();
});

test('the identity differs for any change of operation, Base URL, credential, run index, item index or input', () => {
	const json = { name: 'S0' };
	const variants = [
		itemIdentity(scope, 0, json),
		...scope.map((_, at) =>
			itemIdentity(
				scope.map((part, i) => (i === at ? `${part}x` : part)),
				0,
				json,
			),
		),
		itemIdentity(scope, 1, json),
		itemIdentity(scope, 0, { name: 'S0', extra: null }),
	];
	expect(new Set(variants).size).toBe(variants.length);
	expect(itemIdentity(scope, 0, { name: 'S0' })).toBe(variants[0]);
});

test('unknown, confirmed without its answer, and counted as done are kept as such; a refusal takes the entry out', () => {
	const store = {};
	keep(store, [
		{ request: create('S0'), now: { kind: 'unknown', earlier } },
		{ request: create('S1'), now: { kind: 'confirmedWithoutAnswer' } },
		{ request: create('S2'), now: { kind: 'countedAsDone' } },
	]);
	expect([0, 1, 2].map((index) => read(store, index))).toEqual([
		{ kind: 'unknown', earlier },
		{ kind: 'confirmedWithoutAnswer' },
		{ kind: 'countedAsDone' },
	]);
	keep(store, [confirmed('S0', { id: 'seq-9' }), 'forget', 'forget']);
	expect(read(store, 0)).toMatchObject({ kind: 'confirmed' });
	keep(store, ['forget']);
	expect(new ExecutionRecord(store, 0, BASE).isEmpty).toBe(true);
});

test('run indexes stay apart; an item a try did not reach keeps its entry; a run that succeeds drops the record alone', () => {
	const store: Record<string, unknown> = { other: 'kept' };
	keep(store, [confirmed('S0', { id: 'seq-1' }), confirmed('S1', { id: 'seq-2' })]);
	keep(store, [confirmed('S0', { id: 'seq-5' })], 1);
	keep(store, [undefined, undefined]);
	expect(read(store, 1)).toMatchObject({ answer: { id: 'seq-2' } });
	expect(read(store, 0, create('S0'), 1)).toMatchObject({ answer: { id: 'seq-5' } });
	expect(new ExecutionRecord(store, 2, BASE).isEmpty).toBe(true);
	new ExecutionRecord(store, 0, BASE).drop();
	expect(store).toEqual({ other: 'kept' });
});

test('the record is bounded: past MAX_RECORD_BYTES an answer is kept as confirmed, without its text', () => {
	const store = {};
	const big = { text: 'a'.repeat(1024 * 1024) };
	const items = Array.from({ length: 6 }, (_, index) =>
		confirmed(`S${index}`, { ...big, id: index }),
	);
	expect(keep(store, items)).toBeLessThanOrEqual(MAX_RECORD_BYTES);
	expect(JSON.stringify(store).length).toBeLessThanOrEqual(MAX_RECORD_BYTES + 100);
	const kinds = items.map((_, index) => read(store, index)?.kind);
	expect(kinds.slice(0, 3)).toEqual(['confirmed', 'confirmed', 'confirmed']);
	expect(kinds.slice(4)).toEqual(['confirmedWithoutAnswer', 'confirmedWithoutAnswer']);
});

test('it survives n8n saving it, holds no key, and a record of another shape is read as empty', () => {
	const store: Record<string, unknown> = { [RECORD_KEY]: { version: 99, runs: 'x' } };
	expect(new ExecutionRecord(store, 0, BASE).isEmpty).toBe(true);
	keep(store, [undefined, confirmed('S1', { id: 'seq-1', n: null })], 3);
	const saved = JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
	expect(read(saved, 1, create('S1'), 3)).toMatchObject({ answer: { id: 'seq-1', n: null } });
	expect(JSON.stringify(saved)).not.toMatch(/apiKey|X-API-Key/i);
});

test('a record written before identities (version 1) still answers the exact request it holds', () => {
	const entry = { request: fingerprint(BASE, create('S0')), answer: { id: 'seq-1' } };
	const store = { [RECORD_KEY]: { version: 1, runs: { 0: { 0: entry } } } };
	expect(read(store, 0)).toMatchObject({ answer: { id: 'seq-1' } });
	expect(read(store, 0, create('S0', 'UTC'))).toBeUndefined();
});

test('the fingerprint differs for any change of Base URL, method, path or body', () => {
	const spring = create('Spring');
	const variants = [
		fingerprint(BASE, spring),
		fingerprint(`${BASE}/x`, spring),
		fingerprint(BASE, { ...spring, method: 'GET' }),
		fingerprint(BASE, { ...spring, path: '/v1/x' }),
		fingerprint(BASE, create('Spring ')),
	];
	expect(new Set(variants).size).toBe(5);
});
