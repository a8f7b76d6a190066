// The done keys (run/memory/doneKeys.ts, doneKeyClaim.ts) over a store that
// behaves as n8n's: what each run is told of a key, by what earlier runs did
// with it, in its bucket and the one after; what a run writes per key; and
// that the success path takes nothing out.
import { DAY, callsOf, claim, confirmAll, settle, verdicts, world } from './done-keys-helpers.mts';

test('a key nobody met is sent; confirmed, the next run does not send it; given back, it goes out again', async () => {
	const w = world();
	const first = await claim(w, ['a', 'b']);
	expect(verdicts(first, ['a', 'b'])).toEqual(['send', 'send']);
	await settle(w, first, { a: 'confirmed', b: 'givenBack' });
	const second = await claim(w, ['a', 'b'], 'run-2');
	expect(verdicts(second, ['a', 'b'])).toEqual(['doneBefore', 'send']);
	// Given back takes out the look-up its claim wrote too: a day later, b is still not "done".
	await settle(w, second, { b: 'givenBack' });
	w.clock.now += DAY;
	expect(verdicts(await claim(w, ['b'], 'run-3'), ['b'])).toEqual(['send']);
});

test('another run met the key and has not confirmed it: unknown, not sent; once that run confirms, done; gave it back, sent', async () => {
	const w = world();
	const holder = await claim(w, ['k', 'g'], 'holder');
	const meanwhile = await claim(w, ['k', 'g'], 'meanwhile');
	expect(verdicts(meanwhile, ['k', 'g'])).toEqual(['unknownBefore', 'unknownBefore']);
	// Its look-up of k's done mark wrote one: taken out again, so a third run is not told "done".
	expect(verdicts(await claim(w, ['k'], 'third'), ['k'])).toEqual(['unknownBefore']);
	await settle(w, holder, { k: 'confirmed', g: 'givenBack' });
	expect(verdicts(await claim(w, ['k', 'g'], 'after'), ['k', 'g'])).toEqual(['doneBefore', 'send']);
});

test('sent without a confirmation: unknown in its bucket and the next, sent in the one after', async () => {
	const w = world();
	await settle(w, await claim(w, ['k']), { k: 'unknown' });
	expect(verdicts(await claim(w, ['k'], 'same-bucket'), ['k'])).toEqual(['unknownBefore']);
	w.clock.now += DAY;
	expect(verdicts(await claim(w, ['k'], 'next-bucket'), ['k'])).toEqual(['unknownBefore']);
	w.clock.now += DAY;
	expect(verdicts(await claim(w, ['k'], 'later'), ['k'])).toEqual(['send']);
});

test('a key is carried while runs keep meeting it within a Window, and forgotten once none did for a whole bucket', async () => {
	const w = world();
	await confirmAll(w, ['met', 'left'], 'first');
	w.clock.now += DAY;
	expect(verdicts(await claim(w, ['met'], 'next-day'), ['met'])).toEqual(['doneBefore']);
	w.clock.now += DAY;
	const third = await claim(w, ['met', 'left'], 'day-after');
	expect(verdicts(third, ['met', 'left'])).toEqual(['doneBefore', 'send']);
});

test('a changed Window starts buckets of its own: keys done under the old one are not known to it', async () => {
	const w = world();
	await confirmAll(w, ['k'], 'a-day', DAY);
	expect(verdicts(await claim(w, ['k'], 'an-hour', 60 * 60_000), ['k'])).toEqual(['send']);
	expect(verdicts(await claim(w, ['k'], 'a-day-again', DAY), ['k'])).toEqual(['doneBefore']);
});

test('entries: a confirmed key costs 3 in its first run of a bucket, none in the next run of that bucket, 2 in the next bucket; nothing is taken out', async () => {
	const w = world();
	const keys = Array.from({ length: 1000 }, (_, index) => `key-${index}`);
	await confirmAll(w, keys, 'first');
	// D_{b-1}, C_b and D_b per key, and the run's tag.
	expect(w.row()).toHaveLength(3 * 1000 + 1);
	const again = await claim(w, keys, 'again');
	expect(new Set(verdicts(again, keys))).toEqual(new Set(['doneBefore']));
	await settle(w, again, {});
	expect(w.row()).toHaveLength(3 * 1000 + 2);
	w.clock.now += DAY;
	const nextDay = await claim(w, keys, 'next-day');
	await settle(w, nextDay, {});
	// C_{b+1}, and D_{b+1} carried, per key.
	expect(w.row()).toHaveLength(5 * 1000 + 3);
	expect(callsOf(w, 'remove')).toEqual([]);
});

test('a run that takes the same keys twice holds each once: items of one run are not checked against each other', async () => {
	const w = world();
	expect(verdicts(await claim(w, ['k', 'k']), ['k'])).toEqual(['send']);
	expect(w.row()).toHaveLength(2 + 1);
});

test('n8n trims the row from its oldest entry: a claim loses its dead look-ups first, never a live claim alone', async () => {
	const keys = Array.from({ length: 10 }, (_, index) => `key-${index}`);
	// Room for the claim of 10 keys (D_{b-1}, C_b, tag: 21) but 4: n8n drops the 4 oldest.
	const w = world(17);
	const holder = await claim(w, keys, 'holder');
	expect(w.row()).toHaveLength(17);
	// Still sending: another run is told the outcome is unknown, not that the first keys were done.
	const other = await claim(w, keys, 'other');
	expect(new Set(verdicts(other, keys))).toEqual(new Set(['unknownBefore']));
	await settle(w, holder, {});
});
