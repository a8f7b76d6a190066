// The journal's groups (run/memory/journal.ts): as many items as went out in
// the last second are marked at once, so that a crash finds few items marked
// that were not sent, and a fast run writes n8n's database about once a second.
import { GROUP_SPAN_MS, Journal } from '../../nodes/OutreachSequences/run/memory/journal.ts';
import { MemoryStore } from '../harness/memory-store.mts';

/** The row's marks, without the try's sentinel (every write carries it). */
const marks = (store: MemoryStore) => store.row.filter((key) => !key.startsWith('alive:'));

test('a slow run marks what went out in the last second, so that a crash finds few items marked and unsent', async () => {
	const store = new MemoryStore();
	let now = 0;
	const many = Array.from({ length: 100 }, (_, index) => `id-${index}`);
	const journal = new Journal(
		store,
		many,
		32,
		() => undefined,
		() => now,
	);
	await journal.beforeSend(0);
	expect(marks(store)).toHaveLength(32);
	// The first 32 took 3.2 s to go out: 10 a second.
	now += 3.2 * GROUP_SPAN_MS;
	await journal.beforeSend(32);
	expect(marks(store)).toHaveLength(42);
	// Fast: 10 in 10 ms, a thousand a second. A group at most doubles: 20, not a second's worth (the rest).
	now += 10;
	await journal.beforeSend(42);
	expect(marks(store)).toHaveLength(62);
	// Still that fast: 20 in 20 ms, and the group doubles again, to 40 (to the end here).
	now += 20;
	await journal.beforeSend(62);
	expect(marks(store)).toHaveLength(100);
	expect(store.calls).toBe(4);
});

test("a run's first turns, a burst that goes out at once, do not mark the whole run: the next group is at most twice the first", async () => {
	const store = new MemoryStore();
	let now = 0;
	const many = Array.from({ length: 1000 }, (_, index) => `id-${index}`);
	const journal = new Journal(
		store,
		many,
		32,
		() => undefined,
		() => now,
	);
	await journal.beforeSend(0);
	for (let index = 1; index < 32; index++) expect(journal.beforeSend(index)).toBeUndefined();
	// The 32 went out within 5 ms (the service's limit not yet known): 6,400 a second, if it lasted.
	now += 5;
	await journal.beforeSend(32);
	expect(marks(store)).toHaveLength(32 + 64);
});
