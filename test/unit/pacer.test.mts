// The pacer (run/pace/pacer.ts): its rules on a clock set by hand, and runs on a
// simulated clock against a simulated service: a token bucket of R requests per
// second with burst B that answers 429 with Retry-After in whole seconds, as
// sandbox/server.mts does, at most 32 in flight. Time is simulated, so these are
// exact, repeatable counts, not timings of this machine.
import { RequestPacer } from '../../nodes/OutreachSequences/run/pace/pacer.ts';
import type { Epoch } from '../../nodes/OutreachSequences/run/pace/pacer.ts';

interface Service {
	rate: number;
	burst: number;
	latencyMs: number;
}

/** Timed events, run in order of time, then of scheduling: the simulated event loop. */
class Events {
	private queue: Array<{ at: number; run: () => void }> = [];
	now = 0;

	at(time: number, run: () => void) {
		const after = this.queue.findIndex((event) => event.at > time);
		this.queue.splice(after < 0 ? this.queue.length : after, 0, { at: time, run });
	}

	drain() {
		for (let next = this.queue.shift(); next; next = this.queue.shift()) {
			this.now = Math.max(this.now, next.at);
			next.run();
		}
	}
}

/** N items through the pacer, as the executor drives it, against the simulated service. */
function simulate(items: number, service: Service, idleMs = 0) {
	const events = new Events();
	const pacer = new RequestPacer(32, () => events.now);
	// The pacer may exist long before its first request (a service's pace is kept while idle).
	events.now = idleMs;
	let tokens = service.burst;
	let refilledAt = idleMs;
	const take = (): number | undefined => {
		tokens = Math.min(service.burst, tokens + ((events.now - refilledAt) * service.rate) / 1000);
		refilledAt = events.now;
		if (tokens >= 1) {
			tokens -= 1;
			return undefined;
		}
		return Math.max(1, Math.ceil((1 - tokens) / service.rate)) * 1000;
	};
	let queued = items;
	let inFlight = 0;
	let rejected = 0;
	let slowdowns = 0;
	let storm = 0;
	let worstStorm = 0;
	let timer = false;
	const pump = () => {
		while (queued > 0) {
			const wait = pacer.readyIn(inFlight);
			if (wait === Infinity) return;
			if (wait > 0) {
				if (!timer) {
					timer = true;
					events.at(events.now + wait, () => {
						timer = false;
						pump();
					});
				}
				return;
			}
			queued--;
			inFlight++;
			const ticket = pacer.start();
			events.at(events.now + service.latencyMs, () => {
				inFlight--;
				const retryAfter = take();
				if (retryAfter === undefined) pacer.succeeded(ticket);
				else {
					rejected++;
					queued++;
					if (pacer.pushedBack(ticket, retryAfter)) {
						slowdowns++;
						storm = 0;
					}
					worstStorm = Math.max(worstStorm, ++storm);
				}
				pump();
			});
		}
	};
	pump();
	events.drain();
	return { seconds: (events.now - idleMs) / 1000, rejected, slowdowns, worstStorm };
}

describe('against a rate-limited service (simulated token bucket, Retry-After in seconds)', () => {
	test.each([
		// what, items, service, idle before, time within × N ÷ R, rejected at most
		['200/s, burst 200', 10_000, { rate: 200, burst: 200, latencyMs: 3 }, 0, 1.1, 200],
		['200/s, burst 20', 10_000, { rate: 200, burst: 20, latencyMs: 3 }, 0, 1.25, 200],
		['200/s, burst 1', 10_000, { rate: 200, burst: 1, latencyMs: 3 }, 0, Infinity, Infinity],
		[
			'a slow service (80 ms per answer) at 200/s',
			10_000,
			{ rate: 200, burst: 200, latencyMs: 80 },
			0,
			1.1,
			200,
		],
		// Slow start: when the bucket of 5 is spent, at most 1 + 5 × 0.5 = 3.5 requests are in flight.
		['far slower than the node, 5/s', 300, { rate: 5, burst: 5, latencyMs: 3 }, 0, 1.15, 30],
		// What 100 webhook executions of one item each send, sharing one pace (servicePace.ts).
		['a burst of 100 into a fresh 5/s', 100, { rate: 5, burst: 5, latencyMs: 3 }, 0, 1.15, 9],
		// What the service accepted counts from the epoch's first request, not from when the pace was made.
		[
			'the same burst, the pace made 5 s before',
			100,
			{ rate: 5, burst: 5, latencyMs: 3 },
			5_000,
			1.15,
			9,
		],
		[
			'the same burst, the pace made 9 min before',
			100,
			{ rate: 5, burst: 5, latencyMs: 3 },
			9 * 60_000,
			1.15,
			9,
		],
	])('%s: %i items', (_, items, service, idleMs, within, rejectedAtMost) => {
		const outcome = simulate(items, service, idleMs);
		expect(outcome.seconds).toBeLessThanOrEqual((within * items) / service.rate);
		expect(outcome.rejected).toBeLessThanOrEqual(rejectedAtMost);
		// No storm: a slowdown draws at most the requests already in flight; few slowdowns, each a pause for the whole node.
		expect(outcome.worstStorm).toBeLessThanOrEqual(32);
		if (items === 10_000) expect(outcome.slowdowns).toBeLessThanOrEqual(15);
	});
});

// Slow start, the pause, halving and growing back: batching-limit.test.mts, through the run loop.
describe('the pacer itself', () => {
	test('requests already under way when the service pushed back count as the same slowdown', () => {
		let now = 0;
		const pacer = new RequestPacer(32, () => now);
		const first = pacer.start();
		for (let i = 0; i < 62; i++) pacer.succeeded(first);
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
