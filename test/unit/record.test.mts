// The record (run/outcome/record.ts): what the service confirmed in an earlier try of
// an execution, kept in the node's context, read back when n8n runs the node
// again. Here over a plain object, as n8n's getContext('node') hands it over.
import type { OutreachRequest } from '../../nodes/OutreachSequences/describe/types.ts';
import {
	ExecutionRecord,
	MAX_RECORD_BYTES,
	RECORD_KEY,
	fingerprint,
} from '../../nodes/OutreachSequences/run/outcome/record.ts';

const BASE = 'http://127.0.0.1:4010';
const create = (name: string): OutreachRequest => ({
	method: 'POST',
	path: '/v1/sequences',
	body: JSON.stringify({ name }),
	subject: { noun: 'sequence', verb: 'create', done: 'created' },
});

test('a request the record holds for that item is answered with the answer kept, unchanged', () => {
	const store = {};
	const answer = {
		id: 'seq-1',
		name: 'Spring',
		schedules: [{ dayOffset: 1, scripts: [] }],
		status: null,
	};
	ExecutionRecord.open(store, 0, BASE).keep([{ request: create('Spring'), confirmed: answer }]);
	const again = ExecutionRecord.open(store, 0, BASE);
	expect(again.earlierTry(0, create('Spring'))).toEqual({ kind: 'confirmed', answer });
});

test('a changed request is a new one: another body, another path, another item or another service', () => {
	const store = {};
	ExecutionRecord.open(store, 0, BASE).keep([
		{ request: create('Spring'), confirmed: { id: 'seq-1' } },
	]);
	const again = ExecutionRecord.open(store, 0, BASE);
	expect(again.earlierTry(0, create('Spring follow-up'))).toBeUndefined();
	expect(again.earlierTry(0, { ...create('Spring'), path: '/v1/sequences/x' })).toBeUndefined();
	expect(again.earlierTry(1, create('Spring'))).toBeUndefined();
	expect(
		ExecutionRecord.open(store, 0, 'https://other.example.com').earlierTry(0, create('Spring')),
	).toBeUndefined();
});

test('run indexes stay apart: a node in a loop never takes another run’s answers', () => {
	const store = {};
	ExecutionRecord.open(store, 0, BASE).keep([
		{ request: create('Spring'), confirmed: { id: 'seq-1' } },
	]);
	ExecutionRecord.open(store, 1, BASE).keep([{ request: create('Spring'), sent: true }]);
	expect(ExecutionRecord.open(store, 0, BASE).earlierTry(0, create('Spring'))).toEqual({
		kind: 'confirmed',
		answer: { id: 'seq-1' },
	});
	expect(ExecutionRecord.open(store, 1, BASE).earlierTry(0, create('Spring'))).toEqual({
		kind: 'sent',
	});
	expect(ExecutionRecord.open(store, 2, BASE).isEmpty).toBe(true);
});

test('an item this try did not reach keeps what an earlier try recorded; one it did reach is replaced', () => {
	const store = {};
	ExecutionRecord.open(store, 0, BASE).keep([
		{ request: create('A'), confirmed: { id: 'seq-1' } },
		{ request: create('B'), sent: true },
		{ request: create('C'), confirmed: { id: 'seq-3' } },
	]);
	// The second try: B is confirmed now, C was not reached (On Error = Stop stopped before it).
	ExecutionRecord.open(store, 0, BASE).keep([
		{ request: create('A'), confirmed: { id: 'seq-1' } },
		{ request: create('B'), confirmed: { id: 'seq-2' } },
		undefined,
	]);
	const third = ExecutionRecord.open(store, 0, BASE);
	expect([0, 1, 2].map((index) => third.earlierTry(index, create('ABC'[index])))).toEqual([
		{ kind: 'confirmed', answer: { id: 'seq-1' } },
		{ kind: 'confirmed', answer: { id: 'seq-2' } },
		{ kind: 'confirmed', answer: { id: 'seq-3' } },
	]);
});

test('a run that succeeds drops the record of every run of the node', () => {
	const store: Record<string, unknown> = { other: 'kept' };
	ExecutionRecord.open(store, 0, BASE).keep([
		{ request: create('Spring'), confirmed: { id: 'seq-1' } },
	]);
	expect(store[RECORD_KEY]).toBeDefined();
	ExecutionRecord.open(store, 0, BASE).drop();
	expect(store).toEqual({ other: 'kept' });
});

test('the record is bounded: past MAX_RECORD_BYTES an answer is kept as confirmed, without its text', () => {
	const store = {};
	const big = { id: 'x', text: 'a'.repeat(1024 * 1024) };
	const items = Array.from({ length: 6 }, (_, index) => ({
		request: create(`S${index}`),
		confirmed: { ...big, id: `seq-${index}` },
	}));
	const size = ExecutionRecord.open(store, 0, BASE).keep(items);
	expect(size).toBeLessThanOrEqual(MAX_RECORD_BYTES);
	expect(JSON.stringify(store).length).toBeLessThanOrEqual(MAX_RECORD_BYTES + 100);
	const again = ExecutionRecord.open(store, 0, BASE);
	const kinds = items.map((item, index) => again.earlierTry(index, item.request)?.kind);
	expect(kinds.slice(0, 3)).toEqual(['confirmed', 'confirmed', 'confirmed']);
	expect(kinds.slice(4)).toEqual(['confirmedWithoutAnswer', 'confirmedWithoutAnswer']);
});

test('it survives n8n saving it: JSON in, JSON out', () => {
	const store = {};
	ExecutionRecord.open(store, 3, BASE).keep([
		undefined,
		{ request: create('Spring'), confirmed: { id: 'seq-1', n: null } },
	]);
	const saved = JSON.parse(JSON.stringify(store)) as Record<string, unknown>;
	expect(ExecutionRecord.open(saved, 3, BASE).earlierTry(1, create('Spring'))).toEqual({
		kind: 'confirmed',
		answer: { id: 'seq-1', n: null },
	});
});

test('a record of another shape (another version, or damaged) is read as empty and replaced', () => {
	const store: Record<string, unknown> = { [RECORD_KEY]: { version: 99, runs: 'x' } };
	const record = ExecutionRecord.open(store, 0, BASE);
	expect(record.isEmpty).toBe(true);
	expect(record.earlierTry(0, create('Spring'))).toBeUndefined();
	record.keep([{ request: create('Spring'), sent: true }]);
	expect(ExecutionRecord.open(store, 0, BASE).earlierTry(0, create('Spring'))).toEqual({
		kind: 'sent',
	});
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
