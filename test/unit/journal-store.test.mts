// The journal (run/memory/journal.ts) against n8n's store when it fails or
// loses a write: it fails closed, and a try whose marks another execution's
// write took out writes them all again. Beside another execution's many
// marks, a try takes its own out in calls that each cost n8n little.
import { GROUP_SPAN_MS, Journal } from '../../nodes/OutreachSequences/run/memory/journal.ts';
import { REMOVE_COMPARISONS } from '../../nodes/OutreachSequences/run/memory/processedStore.ts';
import { MemoryStore } from '../harness/memory-store.mts';
import { NODE_ROW, nodeStore } from '../harness/node-store.mts';

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

test("a try of 3,000 items that ends beside another execution's 20,000 marks takes out only its own, in calls that each cost n8n at most REMOVE_COMPARISONS", async () => {
	const { store, rows } = nodeStore(150_000);
	const theirs = Array.from({ length: 20_000 }, (_, index) => `sent:their-${index}`);
	await store.checkAndRecord(theirs);
	const ours = Array.from({ length: 3000 }, (_, index) => `ours-${index}`);
	let now = 0;
	const journal = new Journal(
		store,
		ours,
		ours.length,
		() => undefined,
		() => now,
	);
	await journal.beforeSend(0);
	now += GROUP_SPAN_MS;
	for (let index = 0; index < ours.length; index++) journal.confirmed(index);
	now += GROUP_SPAN_MS;
	journal.confirmed(0);
	const from = rows.calls.length;
	await journal.clear();
	const removals = rows.calls.slice(from).filter((call) => call.call === 'remove');
	// Every mark of this try (3,000 sent, 3,000 confirmed, its sentinel) went, in more than one call.
	expect(removals.reduce((sum, call) => sum + call.keys, 0)).toBe(2 * 3000 + 1);
	expect(removals.length).toBeGreaterThan(1);
	for (const call of removals) expect(call.compared).toBeLessThanOrEqual(REMOVE_COMPARISONS);
	expect(rows.keysOf(NODE_ROW).sort()).toEqual([...theirs].sort());
});
