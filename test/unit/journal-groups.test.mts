// The journal's groups (run/memory/journal.ts): as many items as went out in
// the last second are marked at once, so that a crash finds few items marked
// that were not sent, and a fast run writes n8n's database about once a second.
import { GROUP_SPAN_MS, Journal } from '../../nodes/OutreachSequences/run/memory/journal.ts';
import { MemoryStore } from '../harness/memory-store.mts';

/** The row's marks, without the try's sentinel (every write carries it). */
const marks = (store: MemoryStore) => store.row.filter((key) => !key.startsWith('alive:'));

/** A journal of `items` items, its first group 32, over a fresh store, on a clock the test moves. */
function journalOf(items: number) {
	const store = new MemoryStore();
	const clock = { now: 0 };
	const identities = Array.from({ length: items }, (_, index) => `id-${index}`);
	const journal = new Journal(
		store,
		identities,
		32,
		() => undefined,
		() => clock.now,
	);
	return { store, clock, journal };
}

test('a slow run marks what went out in the last second, so that a crash finds few items marked and unsent', async () => {
	const { store, clock, journal } = journalOf(100);
	await journal.beforeSend(0);
	expect(marks(store)).toHaveLength(32);
	// The first 32 took 3.2 s to go out: 10 a second.
	clock.now += 3.2 * GROUP_SPAN_MS;
	await journal.beforeSend(32);
	expect(marks(store)).toHaveLength(42);
	// Fast: 10 in 10 ms, a thousand a second. A group at most doubles: 20, not a second's worth (the rest).
	clock.now += 10;
	await journal.beforeSend(42);
	expect(marks(store)).toHaveLength(62);
	// Still that fast: 20 in 20 ms, and the group doubles again, to 40 (to the end here).
	clock.now += 20;
	await journal.beforeSend(62);
	expect(marks(store)).toHaveLength(100);
	expect(store.calls).toBe(4);
});

test("a run's first turns, a burst that goes out at once, do not mark the whole run: the next group is at most twice the first", async () => {
	const { store, clock, journal } = journalOf(1000);
	await journal.beforeSend(0);
	for (let index = 1; index < 32; index++) expect(journal.beforeSend(index)).toBeUndefined();
	// The 32 went out within 5 ms (the service's limit not yet known): 6,400 a second, if it lasted.
	clock.now += 5;
	await journal.beforeSend(32);
	expect(marks(store)).toHaveLength(32 + 64);
});
