// The pacer (run/pace/pacer.ts) against a simulated service: a token bucket of R requests
// per second with burst B that answers 429 with Retry-After in whole seconds, as
// sandbox/server.mts does, at most 32 in flight. Time is simulated, so these are exact,
// repeatable counts. Halving and growing back through the run loop: batching-limit.test.mts.
import { RequestPacer } from '../../nodes/OutreachSequences/run/pace/pacer.ts';

/** N items through the pacer, as the executor drives it, against the simulated service. */
function simulate(items: number, rate: number, burst: number, latencyMs: number, idleMs = 0) {
	const events: Array<{ at: number; run: () => void }> = [];
	let now = idleMs;
	const at = (time: number, run: () => void) => {
		const after = events.findIndex((event) => event.at > time);
		events.splice(after < 0 ? events.length : after, 0, { at: time, run });
	};
	// The pacer may exist long before its first request (a service's pace is kept while idle).
	const pacer = new RequestPacer(32, () => now);
	let [tokens, refilledAt, queued, inFlight, rejected, slowdowns, timer] = [
		burst,
		now,
		items,
		0,
		0,
		0,
		false,
	];
	const pump = () => {
		for (
			let wait = pacer.readyIn(inFlight);
			queued > 0 && wait === 0;
			wait = pacer.readyIn(inFlight)
		) {
			queued--;
			inFlight++;
			const ticket = pacer.start();
			at(now + latencyMs, () => {
				inFlight--;
				tokens = Math.min(burst, tokens + ((now - refilledAt) * rate) / 1000);
				refilledAt = now;
				if (tokens >= 1) {
					tokens--;
					pacer.succeeded(ticket);
				} else {
					rejected++;
					queued++;
					if (pacer.pushedBack(ticket, Math.max(1, Math.ceil((1 - tokens) / rate)) * 1000))
						slowdowns++;
				}
				pump();
			});
		}
		const wait = pacer.readyIn(inFlight);
		if (queued === 0 || timer || wait === Infinity) return;
		timer = true;
		at(now + wait, () => {
			timer = false;
			pump();
		});
	};
	pump();
	for (let next = events.shift(); next; next = events.shift()) {
		now = Math.max(now, next.at);
		next.run();
	}
	return { ratio: (now - idleMs) / ((items * 1000) / rate), rejected, slowdowns };
}

test.each([
	// what, items, R, B, latency, idle before, time within × N ÷ R, rejected at most
	['200/s, burst 200', 10_000, 200, 200, 3, 0, 1.1, 200],
	['200/s, burst 20', 10_000, 200, 20, 3, 0, 1.3, 200],
	['200/s, burst 1', 10_000, 200, 1, 3, 0, Infinity, Infinity],
	['a slow service (80 ms per answer) at 200/s', 10_000, 200, 200, 80, 0, 1.1, 200],
	// Slow start: when the bucket of 5 is spent, at most 1 + 5 × 0.5 = 3.5 requests are in flight.
	['far slower than the node, 5/s', 300, 5, 5, 3, 0, 1.15, 30],
	// What 100 webhook executions of one item each send, sharing one pace (servicePace.ts).
	['a burst of 100 into a fresh 5/s', 100, 5, 5, 3, 0, 1.15, 9],
	['the same burst, the pace made 9 min before', 100, 5, 5, 3, 9 * 60_000, 1.15, 9],
])('%s: %i items', (_, items, rate, burst, latencyMs, idleMs, within, rejectedAtMost) => {
	const outcome = simulate(items, rate, burst, latencyMs, idleMs);
	expect(outcome.ratio).toBeLessThanOrEqual(within);
	expect(outcome.rejected).toBeLessThanOrEqual(rejectedAtMost);
	// Few slowdowns, each a pause for the whole node.
	expect(outcome.slowdowns).toBeLessThanOrEqual(15);
});

test('requests under way when the service pushed back are one slowdown: half as many in flight, and a longer wait asked still holds', () => {
	let now = 0;
	const pacer = new RequestPacer(32, () => now);
	const first = pacer.start();
	for (let i = 0; i < 62; i++) pacer.succeeded(first);
	const tickets = Array.from({ length: 5 }, () => pacer.start());
	expect(tickets.map((ticket) => pacer.pushedBack(ticket, 1000))).toEqual([
		true,
		false,
		false,
		false,
		false,
	]);
	expect([pacer.inFlightLimit, pacer.consecutiveSlowdowns]).toEqual([16, 1]);
	now = 100;
	pacer.pushedBack(tickets[4], 3000);
	expect(pacer.readyIn(0)).toBe(3000);
});

test.each([
	['short gaps with nothing in flight are the pace', 0, 5],
	['5 s of quiet before the burst does not count in its rates', 5000, 7],
])('%s', (_, quietMs, atLeast) => {
	// 20 requests 50 ms apart, each answered in 5 ms; the service accepts 10 and pushes back on the last.
	let now = 0;
	const pacer = new RequestPacer(32, () => now);
	let ticket = pacer.start();
	for (let i = 0; i < 20; i++) {
		if (i > 0) ticket = pacer.start();
		now += 5;
		if (i < 10) pacer.succeeded(ticket);
		pacer.idle();
		now += i === 0 ? 45 + quietMs : 45;
	}
	pacer.pushedBack(ticket, 1000);
	now += 1000;
	expect(pacer.readyIn(0)).toBe(0);
	// 10 accepted over about 2 s: no more than twice that. With the 5 s counted: under 3 a second.
	expect(pacer.sendRate).toBeGreaterThanOrEqual(atLeast);
	expect(pacer.sendRate).toBeLessThanOrEqual(10.5);
});
