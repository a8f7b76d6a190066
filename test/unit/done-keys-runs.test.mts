// The done keys while a run goes (run/memory/doneKeys.ts): confirmations
// written as it goes, for a crashed run's next execution; claims that do not
// lapse in a long run; a claim replaced by another write; what giving keys
// back costs n8n.
import { doneEntry, SETTLE_MS } from '../../nodes/OutreachSequences/run/memory/doneKeyClaim.ts';
import { REMOVE_COMPARISONS } from '../../nodes/OutreachSequences/run/memory/processedStore.ts';
import { NODE_ROW } from '../harness/node-store.mts';
import {
	DAY,
	callsOf,
	claim,
	claimWith,
	settingsOf,
	settle,
	verdicts,
	world,
} from './done-keys-helpers.mts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const bucket = (now: number) => Math.floor(now / DAY);

test('confirmations are written as the run goes, at most about once a second: a run that crashed leaves done what it confirmed', async () => {
	const w = world();
	const run = await claim(w, ['a', 'b', 'c', 'd']);
	const written = (key: string) =>
		w.rows.holds(NODE_ROW, doneEntry(settingsOf(w, ''), bucket(w.clock.now), key));
	run.confirmed('a');
	await flush();
	expect(written('a')).toBe(true);
	w.clock.now += 10;
	run.confirmed('b');
	await flush();
	expect(written('b')).toBe(false);
	w.clock.now += 1000;
	run.confirmed('c');
	await flush();
	expect([written('b'), written('c')]).toEqual([true, true]);
	// n8n stops here. The next execution: what was confirmed is done; d's outcome is unknown.
	const next = await claim(w, ['a', 'b', 'c', 'd'], 'next');
	expect(verdicts(next, ['a', 'b', 'c', 'd'])).toEqual([
		'doneBefore',
		'doneBefore',
		'doneBefore',
		'unknownBefore',
	]);
});

test('a long run claims the next bucket before its own ends, so that its claims do not lapse', async () => {
	const w = world();
	const run = await claim(w, ['early', 'late', 'refused']);
	run.confirmed('early');
	const start = bucket(w.clock.now) * DAY;
	// Half-way through the bucket, nothing is claimed ahead yet.
	w.clock.now = start + DAY / 2;
	run.tick();
	await flush();
	expect(w.row().some((key) => key.includes(`:${bucket(start) + 1}:`))).toBe(false);
	w.clock.now = start + DAY - 4 * 60_000;
	run.tick();
	await flush();
	w.clock.now = start + DAY + 60_000;
	const other = await claim(w, ['early', 'late', 'refused'], 'other');
	expect(verdicts(other, ['early', 'late', 'refused'])).toEqual([
		'doneBefore',
		'unknownBefore',
		'unknownBefore',
	]);
	await settle(w, run, { early: 'confirmed', late: 'confirmed', refused: 'givenBack' });
	const after = await claim(w, ['early', 'late', 'refused'], 'after');
	expect(verdicts(after, ['early', 'late', 'refused'])).toEqual([
		'doneBefore',
		'doneBefore',
		'send',
	]);
	w.clock.now += DAY;
	expect(verdicts(await claim(w, ['late'], 'next-day'), ['late'])).toEqual(['doneBefore']);
});

test('a write made from an older read replaced the claim: it is made again, and a key the other write claimed is not sent', async () => {
	const w = world();
	const before = [...(w.rows.rows.get(NODE_ROW) ?? [])];
	let landed = false;
	const sleep = async (ms: number) => {
		expect(ms).toBe(SETTLE_MS);
		if (!landed) {
			// The other execution read the row before this claim, and claimed "theirs" (D_{b-1}, C_b) and its tag.
			const at = bucket(w.clock.now);
			const theirs = [
				`done:sequence.create:${DAY}:${at - 1}:theirs`,
				`claim:sequence.create:${DAY}:${at}:theirs`,
				'tag:other:0',
			];
			w.rows.staleWrite(NODE_ROW, before, theirs);
			landed = true;
		}
		await w.clock.sleep(ms);
	};
	const run = await claimWith(w, ['mine', 'theirs'], { ...settingsOf(w, 'run-1'), sleep });
	expect(verdicts(run, ['mine', 'theirs'])).toEqual(['send', 'unknownBefore']);
	// The claim of "mine" was made again, and stands.
	expect(verdicts(await claim(w, ['mine'], 'later'), ['mine'])).toEqual(['unknownBefore']);
});

test('giving many keys back costs n8n keys × row: it goes in chunks that each compare at most REMOVE_COMPARISONS', async () => {
	const w = world();
	const keys = Array.from({ length: 3000 }, (_, index) => `key-${index}`);
	await settle(
		w,
		await claim(
			w,
			Array.from({ length: 20_000 }, (_, index) => `old-${index}`),
			'old',
		),
		{},
	);
	const run = await claim(w, keys);
	const from = w.rows.calls.length;
	await settle(w, run, Object.fromEntries(keys.map((key) => [key, 'givenBack'])));
	const removals = callsOf(w, 'remove', from);
	expect(removals.reduce((sum, entry) => sum + entry.keys, 0)).toBe(2 * 3000);
	expect(removals.length).toBeGreaterThan(1);
	for (const entry of removals) expect(entry.compared).toBeLessThanOrEqual(REMOVE_COMPARISONS);
	expect(verdicts(await claim(w, keys, 'again'), keys.slice(0, 2))).toEqual(['send', 'send']);
});

test('the store fails: the claim fails, and nothing is called again', async () => {
	const w = world();
	w.rows.failNext = new Error('database is locked');
	await expect(claim(w, ['k'])).rejects.toThrow('database is locked');
	expect(w.rows.calls.filter((entry) => entry.call === 'check')).toEqual([]);
});
