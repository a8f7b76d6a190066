// The journal (run/memory/journal.ts) against n8n's store when it fails or
// loses a write: it fails closed, and a try whose marks another execution's
// write took out writes them all again.
import { GROUP_SPAN_MS, Journal } from '../../nodes/OutreachSequences/run/memory/journal.ts';
import { MemoryStore } from '../harness/memory-store.mts';

const identities = Array.from({ length: 10 }, (_, index) => `id-${index}`);
/** The row's marks, without the try's sentinel (every write carries it). */
const marks = (store: MemoryStore) => store.row.filter((key) => !key.startsWith('alive:'));

test('a store that fails fails closed: no item waits on a mark in vain, each unwritten one is refused; a look-up knows nothing', async () => {
	const heard: unknown[] = [];
	const failure = new Error('no database');
	let calls = 0;
	const failing = {
		checkAndRecord: async () => {
			calls++;
			throw failure;
		},
		remove: async () => undefined,
	};
	const journal = new Journal(
		failing,
		identities,
		2,
		(error) => heard.push(error),
		() => 0,
	);
	await expect(journal.beforeSend(0)).rejects.toBe(failure);
	await expect(journal.beforeSend(1)).rejects.toBe(failure);
	await expect(journal.beforeSend(5)).rejects.toBe(failure);
	journal.confirmed(0);
	await journal.clear();
	// Once broken, nothing more is asked of the store, and nothing is repeated blindly.
	expect(calls).toBe(1);
	expect(heard).toEqual([failure]);
	const retry = new Journal(
		failing,
		identities,
		2,
		() => undefined,
		() => 0,
	);
	expect(await retry.lookUp()).toBeUndefined();
});

test("another execution's write at the same moment, or its clear, takes this try's marks out: the next write finds its sentinel gone and writes them all again", async () => {
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
	expect(marks(store)).toEqual(['sent:id-0', 'sent:id-1']);
	// Another execution read the row before this try's write, and writes it back now.
	store.staleWrite([], ['their-mark']);
	journal.confirmed(0);
	now += GROUP_SPAN_MS;
	await journal.beforeSend(2);
	expect(marks(store).sort()).toEqual(
		['confirmed:id-0', 'sent:id-0', 'sent:id-1', 'sent:id-2', 'sent:id-3', 'their-mark'].sort(),
	);
	// Without a loss, nothing is written twice.
	const calls = store.calls;
	now += GROUP_SPAN_MS;
	await journal.beforeSend(4);
	expect(store.calls).toBe(calls + 1);
});
