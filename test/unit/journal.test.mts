// The journal (run/memory/journal.ts): marks written as a run goes, so that
// a retry after a crash knows what the crashed try sent and what the service
// confirmed; a try that ends takes its marks out.
import { GROUP_SPAN_MS, Journal } from '../../nodes/OutreachSequences/run/memory/journal.ts';
import { FEW_KEYS } from '../../nodes/OutreachSequences/run/memory/processedStore.ts';
import { MemoryStore } from '../harness/memory-store.mts';

const identities = Array.from({ length: 10 }, (_, index) => `id-${index}`);
/** The row's marks, without the try's sentinel (every write carries it). */
const marks = (store: MemoryStore) => store.row.filter((key) => !key.startsWith('alive:'));

test('items are marked sent a group at a time, before the first of them goes out', async () => {
	const store = new MemoryStore();
	let now = 0;
	const journal = new Journal(
		store,
		identities,
		4,
		() => undefined,
		() => now,
	);
	await journal.beforeSend(0);
	expect(marks(store)).toEqual(['sent:id-0', 'sent:id-1', 'sent:id-2', 'sent:id-3']);
	expect(journal.beforeSend(1)).toBeUndefined();
	expect(journal.beforeSend(3)).toBeUndefined();
	// The four went out in a second: the next group is four too.
	now += GROUP_SPAN_MS;
	await journal.beforeSend(4);
	expect(marks(store)).toHaveLength(8);
	expect(store.calls).toBe(2);
});

test('every item of a group waits until its mark is written, not only the first', async () => {
	const store = new MemoryStore();
	let release: () => void = () => undefined;
	const slow = {
		checkAndRecord: async (keys: string[]) => {
			await new Promise<void>((resolve) => (release = resolve));
			return await store.checkAndRecord(keys);
		},
		remove: async (keys: string[]) => await store.remove(keys),
	};
	const journal = new Journal(
		slow,
		identities,
		4,
		() => undefined,
		() => 0,
	);
	const first = journal.beforeSend(0);
	const second = journal.beforeSend(1);
	expect(second).toBeDefined();
	let secondDone = false;
	void second?.then(() => (secondDone = true));
	await new Promise((resolve) => setImmediate(resolve));
	expect(secondDone).toBe(false);
	release();
	await first;
	await second;
	expect(store.row).toContain('sent:id-1');
});

test('confirmations go with the next group’s write, or on their own once a second has passed since the last write', async () => {
	const store = new MemoryStore();
	let now = 0;
	const journal = new Journal(
		store,
		identities,
		2,
		() => undefined,
		() => now,
	);
	await journal.beforeSend(0);
	journal.confirmed(0);
	expect(store.row).not.toContain('confirmed:id-0');
	await journal.beforeSend(2);
	expect(store.row).toContain('confirmed:id-0');
	journal.confirmed(1);
	expect(store.calls).toBe(2);
	now += GROUP_SPAN_MS;
	journal.confirmed(2);
	await journal.clear();
	// The confirmations of 1 and 2 went out on their own, then clear() took every mark out.
	expect(store.calls).toBe(4);
	expect(store.row).toEqual([]);
});

test('a crash leaves the marks; a retry reads them, leaves no mark for an item never sent, and clears them all at its end', async () => {
	const store = new MemoryStore();
	let now = 0;
	const crashed = new Journal(
		store,
		identities,
		3,
		() => undefined,
		() => now,
	);
	await crashed.beforeSend(0);
	crashed.confirmed(0);
	crashed.confirmed(1);
	now += GROUP_SPAN_MS;
	await crashed.beforeSend(3);
	// n8n is killed here: clear() never runs.
	const left = [...store.row];
	const retry = new Journal(
		store,
		identities,
		3,
		() => undefined,
		() => 0,
	);
	const found = await retry.lookUp();
	expect([...(found ?? [])]).toEqual([
		[0, 'confirmed'],
		[1, 'confirmed'],
		[2, 'sent'],
		[3, 'sent'],
		[4, 'sent'],
		[5, 'sent'],
	]);
	// What looking up recorded for the items the crashed try never marked is taken out again.
	expect([...store.row].sort()).toEqual([...left].sort());
	// The retry is killed too, before it sends: the next retry knows just as much, no more.
	const next = new Journal(
		store,
		identities,
		3,
		() => undefined,
		() => 0,
	);
	expect([...((await next.lookUp()) ?? [])]).toEqual([...(found ?? [])]);
	await retry.clear();
	// Only the crashed try's sentinel stays, one key, until n8n drops it as the oldest.
	expect(marks(store)).toEqual([]);
	expect(store.row).toHaveLength(1);
});

test("a try of more than a few keys that ends alone in the store takes the row out in one step; with few, only its own, in one call; beside another execution's marks, only its own", async () => {
	const alone = new MemoryStore();
	const many = Array.from({ length: FEW_KEYS }, (_, index) => `id-${index}`);
	const journal = new Journal(
		alone,
		many,
		FEW_KEYS,
		() => undefined,
		() => 0,
	);
	await journal.beforeSend(0);
	journal.confirmed(0);
	await journal.clear();
	expect(alone.row).toEqual([]);
	expect(alone.cleared).toBe(1);

	const few = new MemoryStore();
	const small = new Journal(
		few,
		identities,
		4,
		() => undefined,
		() => 0,
	);
	await small.beforeSend(0);
	const calls = few.calls;
	await small.clear();
	expect(few.row).toEqual([]);
	expect(few.cleared).toBe(0);
	expect(few.calls).toBe(calls + 1);

	const shared = new MemoryStore();
	shared.row = ['sent:another-execution'];
	const beside = new Journal(
		shared,
		identities,
		4,
		() => undefined,
		() => 0,
	);
	await beside.beforeSend(0);
	await beside.clear();
	expect(shared.row).toEqual(['sent:another-execution']);
	expect(shared.cleared).toBe(0);
});

test('half-way through a group, half a second after its mark, the next group is marked, so that its items need not wait', async () => {
	const store = new MemoryStore();
	let now = 0;
	const journal = new Journal(
		store,
		identities,
		4,
		() => undefined,
		() => now,
	);
	await journal.beforeSend(0);
	// A burst: items 1 to 3 start at once, in the same moment; nothing more is marked.
	expect([1, 2, 3].map((index) => journal.beforeSend(index))).toEqual([
		undefined,
		undefined,
		undefined,
	]);
	expect(marks(store)).toHaveLength(4);
	// 600 ms later item 2 goes out again (a retry of it): past the middle, past half a second. Two went out in 600 ms: the next group is 4.
	now += 600;
	await journal.beforeSend(2);
	expect(marks(store).slice(4)).toEqual(['sent:id-4', 'sent:id-5', 'sent:id-6', 'sent:id-7']);
	expect(store.calls).toBe(2);
	// By the time its items go out, their mark is written: none waits, and nothing more is written.
	await new Promise((resolve) => setImmediate(resolve));
	expect(journal.beforeSend(4)).toBeUndefined();
	expect(journal.beforeSend(5)).toBeUndefined();
	expect(store.calls).toBe(2);
});
