// The record (run/memory/record.ts): what earlier tries of an execution did
// with each item, kept in the node's context, read back when n8n runs the node
// again. Here over a plain object, as n8n's getContext('node') hands it over.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import {
	fingerprint,
	itemIdentity as identityIn,
} from '../../nodes/OutreachSequences/run/memory/record.ts';
import type { ItemForRecord } from '../../nodes/OutreachSequences/run/memory/record.ts';
import {
	ExecutionRecord,
	MAX_RECORD_BYTES,
	RECORD_KEY,
} from '../../nodes/OutreachSequences/run/memory/record.ts';

const BASE = 'http://127.0.0.1:4010';
const create = (name: string, timezone?: string): OutreachRequest => ({
	method: 'POST',
	path: '/v1/sequences',
	body: JSON.stringify(timezone ? { name, timezone } : { name }),
	subject: { noun: 'sequence', verb: 'create', done: 'created' },
});
const scope = { operation: 'sequence.create', baseUrl: BASE, credentialId: 'c1', runIndex: 0 };
const itemIdentity = (of: typeof scope, index: number, json: Record<string, unknown>) =>
	identityIn(
		[of.operation, of.baseUrl, of.credentialId, String(of.runIndex)],
		index,
		json as never,
	);
const identity = (index: number, name = `S${index}`) => itemIdentity(scope, index, { name });
const ids = (index: number) => identity(index);
const confirmed = (request: OutreachRequest, answer: object): ItemForRecord => ({
	request,
	now: { kind: 'confirmed', answer: answer as never, requestChanged: false },
});
const earlier = {
	message: 'It failed (HTTP 500).',
	description: 'd',
	statusCode: 500,
	networkError: null,
};

test('an item the service confirmed is answered with the answer kept, unchanged', () => {
	const store = {};
	const answer = {
		id: 'seq-1',
		name: 'S0',
		schedules: [{ dayOffset: 1, scripts: [] }],
		status: null,
	};
	new ExecutionRecord(store, 0, BASE).keep([confirmed(create('S0'), answer)], ids);
	expect(new ExecutionRecord(store, 0, BASE).earlierTry(0, identity(0), create('S0'))).toEqual({
		kind: 'confirmed',
		answer,
		requestChanged: false,
	});
});

test('an edited retry: the same input item whose request changed with the settings is still confirmed', () => {
	const store = {};
	new ExecutionRecord(store, 0, BASE).keep([confirmed(create('S0'), { id: 'seq-1' })], ids);
	expect(
		new ExecutionRecord(store, 0, BASE).earlierTry(0, identity(0), create('S0', 'Europe/Paris')),
	).toEqual({ kind: 'confirmed', answer: { id: 'seq-1' }, requestChanged: true });
});

test('another input item is another item: its request goes out, whatever the record holds at its index', () => {
	const store = {};
	new ExecutionRecord(store, 0, BASE).keep([confirmed(create('S0'), { id: 'seq-1' })], ids);
	const again = new ExecutionRecord(store, 0, BASE);
	expect(again.earlierTry(0, identity(0, 'S0 changed'), create('S0'))).toBeUndefined();
	expect(again.earlierTry(1, identity(1), create('S1'))).toBeUndefined();
});

test('the identity differs for any change of operation, Base URL, credential, run index, item index or input', () => {
	const json = { name: 'S0' };
	const variants = [
		itemIdentity(scope, 0, json),
		itemIdentity({ ...scope, operation: 'contact.archive' }, 0, json),
		itemIdentity({ ...scope, baseUrl: `${BASE}/x` }, 0, json),
		itemIdentity({ ...scope, credentialId: 'c2' }, 0, json),
		itemIdentity({ ...scope, runIndex: 1 }, 0, json),
		itemIdentity(scope, 1, json),
		itemIdentity(scope, 0, { name: 'S0', extra: null }),
	];
	expect(new Set(variants).size).toBe(variants.length);
	expect(itemIdentity(scope, 0, { name: 'S0' })).toBe(variants[0]);
	expect(variants[0]).toHaveLength(22);
});

test('what may have been carried out is kept with its words; a refusal is forgotten, so the item goes out again', () => {
	const store = {};
	new ExecutionRecord(store, 0, BASE).keep(
		[{ request: create('S0'), now: { kind: 'unknown', earlier } }, 'forget'],
		ids,
	);
	const again = new ExecutionRecord(store, 0, BASE);
	expect(again.earlierTry(0, identity(0), create('S0'))).toEqual({ kind: 'unknown', earlier });
	expect(again.earlierTry(1, identity(1), create('S1'))).toBeUndefined();
	// A later try confirms what was unknown (the user said to send it again); a refusal takes an entry out.
	new ExecutionRecord(store, 0, BASE).keep([confirmed(create('S0'), { id: 'seq-9' })], ids);
	expect(
		new ExecutionRecord(store, 0, BASE).earlierTry(0, identity(0), create('S0')),
	).toMatchObject({ kind: 'confirmed' });
	new ExecutionRecord(store, 0, BASE).keep(['forget'], ids);
	expect(new ExecutionRecord(store, 0, BASE).isEmpty).toBe(true);
});

test('a confirmation without its answer and a count as done are kept as such', () => {
	const store = {};
	new ExecutionRecord(store, 0, BASE).keep(
		[
			{ request: create('S0'), now: { kind: 'confirmedWithoutAnswer' } },
			{ request: create('S1'), now: { kind: 'countedAsDone' } },
		],
		ids,
	);
	const again = new ExecutionRecord(store, 0, BASE);
	expect(again.earlierTry(0, identity(0), create('S0'))).toEqual({
		kind: 'confirmedWithoutAnswer',
	});
	expect(again.earlierTry(1, identity(1), create('S1'))).toEqual({ kind: 'countedAsDone' });
});

test('run indexes stay apart; an item this try did not reach keeps what an earlier try recorded', () => {
	const store = {};
	new ExecutionRecord(store, 0, BASE).keep(
		[confirmed(create('S0'), { id: 'seq-1' }), confirmed(create('S1'), { id: 'seq-2' })],
		ids,
	);
	new ExecutionRecord(store, 1, BASE).keep([confirmed(create('S0'), { id: 'seq-5' })], ids);
	new ExecutionRecord(store, 0, BASE).keep([undefined, undefined], ids);
	expect(
		new ExecutionRecord(store, 0, BASE).earlierTry(1, identity(1), create('S1')),
	).toMatchObject({ answer: { id: 'seq-2' } });
	expect(
		new ExecutionRecord(store, 1, BASE).earlierTry(0, identity(0), create('S0')),
	).toMatchObject({ answer: { id: 'seq-5' } });
	expect(new ExecutionRecord(store, 2, BASE).isEmpty).toBe(true);
});

test('a run that succeeds drops the record of every run of the node', () => {
	const store: Record<string, unknown> = { other: 'kept' };
	new ExecutionRecord(store, 0, BASE).keep([confirmed(create('S0'), { id: 'seq-1' })], ids);
	expect(store[RECORD_KEY]).toBeDefined();
	new ExecutionRecord(store, 0, BASE).drop();
	expect(store).toEqual({ other: 'kept' });
});

test('the record is bounded: past MAX_RECORD_BYTES an answer is kept as confirmed, without its text', () => {
	const store = {};
	const big = { text: 'a'.repeat(1024 * 1024) };
	const items = Array.from({ length: 6 }, (_, index) =>
		confirmed(create(`S${index}`), { ...big, id: `seq-${index}` }),
	);
	const size = new ExecutionRecord(store, 0, BASE).keep(items, ids);
	expect(size).toBeLessThanOrEqual(MAX_RECORD_BYTES);
	expect(JSON.stringify(store).length).toBeLessThanOrEqual(MAX_RECORD_BYTES + 100);
	const again = new ExecutionRecord(store, 0, BASE);
	const kinds = items.map(
		(_, index) => again.earlierTry(index, identity(index), create(`S${index}`))?.kind,
	);
	expect(kinds.slice(0, 3)).toEqual(['confirmed', 'confirmed', 'confirmed']);
	expect(kinds.slice(4)).toEqual(['confirmedWithoutAnswer', 'confirmedWithoutAnswer']);
});

test('it survives n8n saving it, holds no key, and a record of another shape is read as empty', () => {
	const store: Record<string, unknown> = { [RECORD_KEY]: { version: 99, runs: 'x' } };
	expect(new ExecutionRecord(store, 0, BASE).isEmpty).toBe(true);
	new ExecutionRecord(store, 3, BASE).keep(
		[undefined, confirmed(create('S1'), { id: 'seq-1', n: null })],
		ids,
	);
	const saved = JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
	expect(
		new ExecutionRecord(saved, 3, BASE).earlierTry(1, identity(1), create('S1')),
	).toMatchObject({
		answer: { id: 'seq-1', n: null },
	});
	expect(JSON.stringify(saved)).not.toMatch(/apiKey|X-API-Key/i);
});

test('a record written before identities (version 1) still answers the exact request it holds', () => {
	const store = {
		[RECORD_KEY]: {
			version: 1,
			runs: { 0: { 0: { request: fingerprint(BASE, create('S0')), answer: { id: 'seq-1' } } } },
		},
	};
	const record = new ExecutionRecord(store, 0, BASE);
	expect(record.earlierTry(0, identity(0), create('S0'))).toMatchObject({
		answer: { id: 'seq-1' },
	});
	expect(record.earlierTry(0, identity(0), create('S0', 'UTC'))).toBeUndefined();
});

test('the fingerprint is short, and differs for any change of Base URL, method, path or body', () => {
	const base = fingerprint(BASE, create('Spring'));
	expect(base).toHaveLength(22);
	expect(
		new Set([
			base,
			fingerprint(`${BASE}/x`, create('Spring')),
			fingerprint(BASE, { ...create('Spring'), method: 'GET' }),
			fingerprint(BASE, { ...create('Spring'), path: '/v1/x' }),
			fingerprint(BASE, create('Spring ')),
		]).size,
	).toBe(5);
});
