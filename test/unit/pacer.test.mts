// The pacer on a virtual clock, against a simulated service: a token bucket of
// R requests per second with burst B that answers 429 with Retry-After in whole
// seconds, as sandbox/server.mts does. Time is simulated, so these are exact,
// repeatable counts, not timings of this machine.
import { RequestPacer } from '../../nodes/OutreachSequences/run/pace/pacer.ts';
import type { Epoch } from '../../nodes/OutreachSequences/run/pace/pacer.ts';

interface Service {
	rate: number;
	burst: number;
	latencyMs: number;
}

interface Outcome {
	seconds: number;
	ideal: number;
	rejected: number;
	slowdowns: number;
	/** The most rejections that one slowdown drew. */
	worstStorm: number;
}

/** A min-heap of timed events: the simulated event loop. */
class Events {
	private heap: Array<{ at: number; seq: number; run: () => void }> = [];
	private seq = 0;
	now = 0;

	at(time: number, run: () => void) {
		const heap = this.heap;
		heap.push({ at: time, seq: this.seq++, run });
		for (let i = heap.length - 1; i > 0; ) {
			const parent = (i - 1) >> 1;
			if (!this.less(i, parent)) break;
			[heap[i], heap[parent]] = [heap[parent], heap[i]];
			i = parent;
		}
	}

	drain() {
		const heap = this.heap;
		while (heap.length) {
			const top = heap[0];
			const last = heap.pop()!;
			if (heap.length) {
				heap[0] = last;
				for (let i = 0; ; ) {
					const [l, r] = [2 * i + 1, 2 * i + 2];
					let m = i;
					if (l < heap.length && this.less(l, m)) m = l;
					if (r < heap.length && this.less(r, m)) m = r;
					if (m === i) break;
					[heap[i], heap[m]] = [heap[m], heap[i]];
					i = m;
				}
			}
			this.now = Math.max(this.now, top.at);
			top.run();
		}
	}

	private less(a: number, b: number) {
		const [x, y] = [this.heap[a], this.heap[b]];
		return x.at < y.at || (x.at === y.at && x.seq < y.seq);
	}
}

/** N items through the pacer, as the executor drives it, against the simulated service. */
function simulate(items: number, service: Service, ceiling = 32, idleMs = 0): Outcome {
	const events = new Events();
	const pacer = new RequestPacer(ceiling, () => events.now);
	// The pacer may exist long before its first request (a service's pace is kept while idle).
	events.now = idleMs;
	let tokens = service.burst;
	let refilledAt = idleMs;
	const log = process.env.PACER_TRACE
		? (text: string) => process.stdout.write(`${text}\n`)
		: () => {};
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
			const ticket: Epoch = pacer.start();
			events.at(events.now + service.latencyMs, () => {
				inFlight--;
				const retryAfter = take();
				if (retryAfter === undefined) {
					pacer.succeeded(ticket);
				} else {
					rejected++;
					queued++;
					if (pacer.pushedBack(ticket, retryAfter)) {
						log(`t=${(events.now / 1000).toFixed(2)} slowdown, rate ${pacer.sendRate.toFixed(1)}`);
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
	return {
		seconds: (events.now - idleMs) / 1000,
		ideal: items / service.rate,
		rejected,
		slowdowns,
		worstStorm,
	};
}

describe('against a rate-limited service (simulated token bucket, Retry-After in seconds)', () => {
	test('200 per second with a burst of 200: 10,000 items within 1.10 × N ÷ R, under 2% rejected', () => {
		const outcome = simulate(10_000, { rate: 200, burst: 200, latencyMs: 3 });
		expect(outcome.seconds).toBeLessThanOrEqual(outcome.ideal * 1.1);
		expect(outcome.rejected).toBeLessThanOrEqual(200);
	});

	test('200 per second with a burst of 20: within 1.25 × N ÷ R, under 2% rejected', () => {
		const outcome = simulate(10_000, { rate: 200, burst: 20, latencyMs: 3 });
		expect(outcome.seconds).toBeLessThanOrEqual(outcome.ideal * 1.25);
		expect(outcome.rejected).toBeLessThanOrEqual(200);
	});

	test('a slow service (80 ms per answer) at 200 per second: within 1.10 × N ÷ R', () => {
		const outcome = simulate(10_000, { rate: 200, burst: 200, latencyMs: 80 });
		expect(outcome.seconds).toBeLessThanOrEqual(outcome.ideal * 1.1);
		expect(outcome.rejected).toBeLessThanOrEqual(200);
	});

	test('no storm: a slowdown draws at most the requests that were already in flight', () => {
		for (const burst of [1, 20, 200]) {
			const outcome = simulate(10_000, { rate: 200, burst, latencyMs: 3 });
			expect(outcome.worstStorm).toBeLessThanOrEqual(32);
			// Few slowdowns: each one is a pause of a second for the whole node.
			expect(outcome.slowdowns).toBeLessThanOrEqual(15);
		}
	});

	test('a service far slower than the node (5 per second) still gets every item, at near its rate', () => {
		const outcome = simulate(300, { rate: 5, burst: 5, latencyMs: 3 });
		expect(outcome.seconds).toBeLessThanOrEqual(outcome.ideal * 1.15);
		// Slow start: when the bucket of 5 is spent, at most 1 + 5 × 0.5 = 3.5
		// requests are in flight, so the first slowdown meets at most 3; each
		// later one meets what the halved window had in flight, a request or two.
		expect(outcome.rejected).toBeLessThanOrEqual(3 + 2 * outcome.slowdowns);
	});

	test('a burst meeting a fresh service: 100 requests at once into 5 per second, under 10% rejected, near the ideal time', () => {
		// What 100 webhook executions of one item each send, sharing one pace (servicePace.ts).
		const outcome = simulate(100, { rate: 5, burst: 5, latencyMs: 3 });
		expect(outcome.rejected).toBeLessThan(10);
		expect(outcome.seconds).toBeLessThanOrEqual(outcome.ideal * 1.15);
	});

	test('the same burst into a pace made long before its first request (kept while idle): still near the ideal time', () => {
		// What the service accepted is measured from the first request of the epoch, not from when the pacer was made:
		// counted from 60 s earlier, 4 accepted requests looked like 0.07 per second, and the burst crawled.
		for (const idleMs of [5_000, 60_000, 9 * 60_000]) {
			const outcome = simulate(100, { rate: 5, burst: 5, latencyMs: 3 }, 32, idleMs);
			expect([idleMs, outcome.rejected < 10, outcome.seconds <= outcome.ideal * 1.15]).toEqual([
				idleMs,
				true,
				true,
			]);
		}
	});
});
