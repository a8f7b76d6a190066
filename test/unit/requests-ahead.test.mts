// The items' requests made ahead while Skip Items Done Before's claim settles
// (run/loop/requestsAhead.ts), on the virtual clock: in order, a turn for
// n8n's event loop every 32, for as long as the wait, each made once; an
// item whose request can't be made throws when the loop takes it.
import { RequestsAhead } from '../../nodes/OutreachSequences/run/loop/requestsAhead.ts';
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';

/** Making a request takes `costMs` on the clock; item 5's can't be made. */
function world(count: number, costMs: number) {
	const clock = new VirtualClock();
	const made: number[] = [];
	const turns: number[] = [];
	const ahead = new RequestsAhead(count, (index) => {
		made.push(index);
		clock.now += costMs;
		if (index === 5) throw new Error('Contact ID is empty');
		return { path: `/v1/contacts/${index}/archive` } as unknown as OutreachRequest;
	});
	const during = (ms: number) =>
		clock.run(
			ahead.during(ms, {
				now: () => clock.now,
				turn: async () => {
					turns.push(made.length);
					await clock.sleep(0);
				},
				sleep: clock.sleep,
			}),
		);
	return { clock, made, turns, ahead, during };
}

test('a second of waiting makes the first requests, in order, with a turn at most every 32; the rest are made when taken, each once', async () => {
	const w = world(1000, 10);
	await w.during(1000);
	// 10 ms each: the 32 after the last turn before the second ended are made, then it stops.
	expect(w.made).toEqual(Array.from({ length: 128 }, (_, index) => index));
	expect(w.turns).toEqual([32, 64, 96, 128]);
	expect(w.clock.now).toBe(1280);
	expect(w.ahead.take(0).path).toBe('/v1/contacts/0/archive');
	expect(() => w.ahead.take(5)).toThrow('Contact ID is empty');
	expect(w.ahead.take(500).path).toBe('/v1/contacts/500/archive');
	expect(w.made).toHaveLength(129);
	// Taken once: a request taken again is made again, as the loop never takes one twice.
	w.ahead.take(0);
	expect(w.made.at(-1)).toBe(0);
});

test('when every request is made before the wait ends, the rest of it is waited out, not cut short', async () => {
	const w = world(40, 1);
	await w.during(1000);
	expect(w.made).toHaveLength(40);
	expect(w.turns).toEqual([32, 40]);
	expect(w.clock.now).toBe(1000);
});
