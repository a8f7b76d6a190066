// The pacer's own rules, on a clock set by hand: slow start, a push-back's
// pause and halving, growing back, and the send rate after a push-back.
import { RequestPacer } from '../../nodes/OutreachSequences/run/pace/pacer.ts';
import type { Epoch } from '../../nodes/OutreachSequences/run/pace/pacer.ts';

/** Successes until slow start has reached `ceiling` in flight: one at first, half a request more per success. */
function grownTo(pacer: RequestPacer, ceiling: number): void {
	const ticket = pacer.start();
	for (let i = 0; i < (ceiling - 1) * 2; i++) pacer.succeeded(ticket);
	expect(pacer.inFlightLimit).toBe(ceiling);
}

describe('the pacer itself', () => {
	test('slow start: one request in flight at first, half a request more per success, up to the bound; no rate until a push-back', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		const limits: number[] = [];
		for (let i = 0; i < 1000; i++) {
			limits.push(pacer.inFlightLimit);
			expect(pacer.readyIn(pacer.inFlightLimit - 1)).toBe(0);
			expect(pacer.readyIn(pacer.inFlightLimit)).toBe(Infinity);
			pacer.succeeded(pacer.start());
			now += 0.01;
		}
		expect(limits.slice(0, 7)).toEqual([1, 1, 2, 2, 3, 3, 4]);
		// 1 + 62 × 0.5 = 32, the bound, which it never passes.
		expect(limits[61]).toBe(31);
		expect(limits[62]).toBe(32);
		expect(Math.max(...limits)).toBe(32);
		expect(pacer.sendRate).toBe(Infinity);
	});

	test('a push-back pauses every new start for the wait, then halves the requests in flight', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		grownTo(pacer, 32);
		const ticket = pacer.start();
		now = 10;
		expect(pacer.pushedBack(ticket, 1500)).toBe(true);
		expect(pacer.readyIn(0)).toBe(1500);
		now = 1509;
		expect(pacer.readyIn(0)).toBe(1);
		now = 1510;
		expect(pacer.inFlightLimit).toBe(16);
		expect(pacer.readyIn(15)).toBe(0);
		expect(pacer.readyIn(16)).toBe(Infinity);
	});

	test('requests already under way when the service pushed back count as the same slowdown', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		grownTo(pacer, 32);
		const tickets = Array.from({ length: 5 }, () => pacer.start());
		expect(pacer.pushedBack(tickets[0], 1000)).toBe(true);
		for (const ticket of tickets.slice(1)) expect(pacer.pushedBack(ticket, 1000)).toBe(false);
		expect(pacer.inFlightLimit).toBe(16);
		expect(pacer.consecutiveSlowdowns).toBe(1);
		// A longer wait asked by a straggler still holds.
		now = 100;
		pacer.pushedBack(tickets[4], 3000);
		expect(pacer.readyIn(0)).toBe(3000);
	});

	test('successes let the number in flight grow back by one per window of successes, up to the bound', () => {
		let now = 0;
		const pacer = new RequestPacer(8, () => now);
		grownTo(pacer, 8);
		pacer.pushedBack(pacer.start(), 0);
		now = 1;
		pacer.readyIn(0);
		expect(pacer.inFlightLimit).toBe(4);
		const ticket = pacer.start();
		// 4 + 1/4 + 1/4.25 + … : the fifth success passes 5.
		for (let i = 0; i < 4; i++) pacer.succeeded(ticket);
		expect(pacer.inFlightLimit).toBe(4);
		pacer.succeeded(ticket);
		expect(pacer.inFlightLimit).toBe(5);
		for (let i = 0; i < 100; i++) pacer.succeeded(ticket);
		expect(pacer.inFlightLimit).toBe(8);
	});

	test('Limit Fixed: the requests in flight open to Items per Batch at the first request; a push-back halves them, and they grow back by one per window of successes, up to it', () => {
		let now = 0;
		const pacer = new RequestPacer(1, () => now);
		pacer.raiseCeiling(16, true);
		expect(pacer.inFlightLimit).toBe(16);
		expect(pacer.readyIn(15)).toBe(0);
		expect(pacer.readyIn(16)).toBe(Infinity);
		const ticket = pacer.start();
		pacer.pushedBack(ticket, 0);
		now = 1;
		pacer.readyIn(0);
		expect(pacer.inFlightLimit).toBe(8);
		const after = pacer.start();
		// 8 + 1/8 + 1/8.125 + … : the ninth success passes 9, as without Fixed.
		for (let i = 0; i < 8; i++) pacer.succeeded(after);
		expect(pacer.inFlightLimit).toBe(8);
		pacer.succeeded(after);
		expect(pacer.inFlightLimit).toBe(9);
		for (let i = 0; i < 200; i++) pacer.succeeded(after);
		expect(pacer.inFlightLimit).toBe(16);
	});

	test('Limit Fixed joining a pace: it opens one still in slow start, not one the service has pushed back on; Automatic never opens it', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		pacer.raiseCeiling(64);
		expect(pacer.inFlightLimit).toBe(1);
		pacer.raiseCeiling(64, true);
		expect(pacer.inFlightLimit).toBe(64);
		pacer.pushedBack(pacer.start(), 0);
		now = 1;
		pacer.readyIn(0);
		expect(pacer.inFlightLimit).toBe(32);
		pacer.raiseCeiling(128, true);
		expect(pacer.inFlightLimit).toBe(32);
		// Grows back past the old ceiling, up to the new one.
		const ticket = pacer.start();
		for (let i = 0; i < 20_000; i++) pacer.succeeded(ticket);
		expect(pacer.inFlightLimit).toBe(128);
	});

	test('after the first push-back the send rate is at most half the rejected one, and twice what the service accepted; a success resets the backoff count', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		let ticket: Epoch | undefined;
		for (let i = 0; i < 100; i++) {
			ticket = pacer.start();
			now += 1; // 1000 per second
		}
		// The service accepted 60 of them: 60 in 1.1 s, so at most twice that.
		for (let i = 0; i < 60; i++) pacer.succeeded(ticket!);
		pacer.pushedBack(ticket!, 1000);
		now += 1000;
		expect(pacer.readyIn(0)).toBe(0);
		expect(pacer.sendRate).toBeCloseTo((2 * 60) / 1.1, 0);
		pacer.succeeded(ticket!);
		expect(pacer.consecutiveSlowdowns).toBe(0);
	});

	test('time without demand in an epoch counts for at most a second: a burst after a long wait for n8n is judged at its own rate, not the wait', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		// One request, answered; then nothing in flight and nothing waiting for 5 s (the executions wait for n8n's database).
		const first = pacer.start();
		pacer.succeeded(first);
		now = 10;
		pacer.idle();
		now = 5010;
		// Then 8 requests in 400 ms; the service accepts 6 and pushes back.
		let ticket = first;
		for (let i = 0; i < 8; i++) {
			ticket = pacer.start();
			now += 50;
		}
		for (let i = 0; i < 5; i++) pacer.succeeded(ticket);
		pacer.pushedBack(ticket, 1000);
		now += 1000;
		expect(pacer.readyIn(0)).toBe(0);
		// The 5 s gap counts as 1 s. Sent: 9 in 1.36 s, halved (untrusted); accepted: 6 in 2.41 s with
		// the pause, at most twice that. The lower, 3.3 a second; with the whole gap counted, below 1.
		expect(pacer.sendRate).toBeCloseTo(Math.min((9 / 1.36) * 0.5, (2 * 6) / 2.41), 1);
	});
	test('short gaps between requests to a near service count: nothing in flight for 45 ms of every 50 is the pace, not a pause', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		// 20 requests 50 ms apart, each answered in 5 ms, then nothing in flight until the next.
		let ticket = pacer.start();
		for (let i = 0; i < 20; i++) {
			if (i > 0) ticket = pacer.start();
			now += 5;
			if (i < 10) pacer.succeeded(ticket);
			pacer.idle();
			now += 45;
		}
		pacer.pushedBack(ticket, 1000);
		now += 1000;
		expect(pacer.readyIn(0)).toBe(0);
		// 10 accepted over the 1 s of sends and the 1 s pause: at most twice that, 10 a second.
		// With the 19 gaps of 45 ms left out, the same 10 would count over 1.145 s: 17.5 a second.
		expect(pacer.sendRate).toBeCloseTo((2 * 10) / 2, 1);
	});
});
