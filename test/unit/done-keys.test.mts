// The done keys (run/outcome/doneKeys.ts): a key counts only once the service
// confirmed it, a failed item's key is taken back, and two executions at once,
// over a store with no lock, do not both send the same key.
import {
	CLAIM_BUCKET_MS,
	DoneKeys,
	SETTLE_MS,
} from '../../nodes/OutreachSequences/run/outcome/doneKeys.ts';
import type { DoneKeySettings } from '../../nodes/OutreachSequences/run/outcome/doneKeys.ts';
import { MemoryStore } from '../harness/memory-store.mts';
import { VirtualClock } from '../harness/virtual-clock.mts';

const DAY = 24 * 60 * 60_000;

function settings(clock: VirtualClock, tag: string, sleep = clock.sleep): DoneKeySettings {
	return { scope: 'sequence.create', windowMs: DAY, tag, now: () => clock.now, sleep };
}

async function claim(
	store: MemoryStore,
	clock: VirtualClock,
	keys: Array<string | undefined>,
	tag = 'run-1',
) {
	return await clock.run(DoneKeys.claim(store, keys, settings(clock, tag)));
}

test('a key nobody did is sent; once confirmed, a later execution within the window does not send it', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	const first = await claim(store, clock, ['a@example.com', 'b@example.com']);
	expect(first.verdicts).toEqual(['send', 'send']);
	await first.doneKeys.settle(['a@example.com']);
	clock.now += DAY - 60_000;
	const second = await claim(store, clock, ['a@example.com', 'b@example.com'], 'run-2');
	expect(second.verdicts).toEqual(['doneBefore', 'send']);
	await second.doneKeys.settle([]);
});

test('a key counts only once confirmed: a failed item’s key goes out again in the next execution', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	const first = await claim(store, clock, ['k']);
	await first.doneKeys.settle([]);
	expect((await claim(store, clock, ['k'], 'run-2')).verdicts).toEqual(['send']);
});

test('a key the service may have carried out is marked unknown: the next execution does not send it; confirmed, done wins', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	await (await claim(store, clock, ['k'])).doneKeys.settle([], ['k']);
	const second = await claim(store, clock, ['k'], 'run-2');
	expect(second.verdicts).toEqual(['unknownBefore']);
	await second.doneKeys.settle(['k']);
	expect((await claim(store, clock, ['k'], 'run-3')).verdicts).toEqual(['doneBefore']);
});

test('the window: at least its length, at most twice it', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	clock.now = 10 * DAY;
	await (await claim(store, clock, ['k'])).doneKeys.settle(['k']);
	clock.now += DAY;
	expect((await claim(store, clock, ['k'], 'run-2')).verdicts).toEqual(['doneBefore']);
	clock.now += DAY;
	expect((await claim(store, clock, ['k'], 'run-3')).verdicts).toEqual(['send']);
});

test('an execution that ended takes out its claims, tags and the done marks it only looked for', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	const run = await claim(store, clock, ['x', 'y', undefined]);
	expect(run.verdicts).toEqual(['send', 'send', undefined]);
	await run.doneKeys.settle(['x']);
	expect(store.row).toHaveLength(1);
	expect(store.row[0]).toMatch(/^done:sequence\.create:\d+:x$/);
});

test('the same key twice in one run is sent twice: items of one run are not deduplicated against each other', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	expect((await claim(store, clock, ['k', 'k'])).verdicts).toEqual(['send', 'send']);
});

test('two executions one after the other while the first is still sending: the second does not send it', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	const first = await claim(store, clock, ['k'], 'run-1');
	expect((await claim(store, clock, ['k'], 'run-2')).verdicts).toEqual(['busy']);
	await first.doneKeys.settle(['k']);
	expect((await claim(store, clock, ['k'], 'run-3')).verdicts).toEqual(['doneBefore']);
});

test('a claim left by a run that never ended (a crash) lapses within twice the claim bucket', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	await claim(store, clock, ['k'], 'crashed');
	clock.now += 2 * CLAIM_BUCKET_MS;
	expect((await claim(store, clock, ['k'], 'later')).verdicts).toEqual(['send']);
});

test('two executions at the same moment: a write made from an older read replaces the claim, and only one sends', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	// B read the row before A claimed; B's write (its claim and tag) lands while A waits SETTLE_MS.
	const before = store.read();
	let bLanded = false;
	const aSleep = async (ms: number) => {
		expect(ms).toBe(SETTLE_MS);
		if (!bLanded) {
			const bClaims = store.row.filter((key) => key.startsWith('claim:')).map((key) => key);
			store.staleWrite(before, [...bClaims, 'tag:run-B:0']);
			bLanded = true;
		}
		await clock.sleep(ms);
	};
	const a = await clock.run(DoneKeys.claim(store, ['k'], settings(clock, 'run-A', aSleep)));
	// A's tag was gone: another write replaced its claim, and that write holds the key's claim, so A does not send.
	expect(a.verdicts).toEqual(['busy']);
});

test('a write from an older read that replaced another key’s claim: the claim is made again, and the item is sent', async () => {
	const store = new MemoryStore();
	const clock = new VirtualClock();
	const before = store.read();
	let landed = false;
	const sleep = async (ms: number) => {
		if (!landed) {
			store.staleWrite(before, ['claim:sequence.create:0:other', 'tag:run-B:0']);
			landed = true;
		}
		await clock.sleep(ms);
	};
	const run = await clock.run(DoneKeys.claim(store, ['k'], settings(clock, 'run-A', sleep)));
	expect(run.verdicts).toEqual(['send']);
	expect(store.row.some((key) => key.endsWith(':k') && key.startsWith('claim:'))).toBe(true);
});
