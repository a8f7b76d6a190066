// The latency limit (run/pace/latencyLimit.ts) on a clock of its own, against
// simulated services (latency-limit-helpers.mts): it grows while the round trip
// holds, settles near what a busy service works on at once instead of building
// a line, goes down when the service gets busier, and stays between 1 and the
// ceiling. Exact, repeatable counts, not timings of this machine.
import { LatencyLimit } from '../../nodes/OutreachSequences/run/pace/latencyLimit.ts';
import { simulate } from './latency-limit-helpers.mts';

/** The node's own cost per item in these runs: about what it spends in n8n on this machine (bench/results.md). */
const CPU_MS = 2;

describe('a far service: it grows while the round trip holds', () => {
	test.each([50, 200, 500])(
		'%i ms away, 1,000 items take at most 1.3 × (the node’s own time at 0 ms + two round trips)',
		(latencyMs) => {
			const near = simulate(1000, { latencyMs: 0 }, { cpuMs: CPU_MS });
			const far = simulate(1000, { latencyMs }, { cpuMs: CPU_MS });
			// Two: the first round opens the limit to FIRST_ROUND_MAX only.
			expect(far.seconds).toBeLessThanOrEqual(1.3 * (near.seconds + (2 * latencyMs) / 1000));
			// The old bound, 32 at once, allowed at most 64 a second at 500 ms.
			if (latencyMs === 500) expect(far.maxInFlight).toBeGreaterThan(200);
		},
	);

	test('from 500 ms away, the first answer opens the limit to 8 and a round later past 300: a few round trips, not ten', () => {
		const { limits } = simulate(1000, { latencyMs: 500 }, { cpuMs: CPU_MS });
		const changes = limits.filter((entry, index) => entry.limit !== limits[index - 1]?.limit);
		expect(changes[0].at).toBeGreaterThan(500);
		expect(changes[0].at).toBeLessThan(510);
		expect(changes[0].limit).toBe(8);
		expect(changes[1].at).toBeLessThan(1520);
		expect(changes[1].limit).toBeGreaterThan(300);
	});

	test('with jitter and pauses in n8n (answers up to 30% late, the node stalling 20 ms every 250 ms), still within 1.3 ×', () => {
		const near = simulate(1000, { latencyMs: 0, jitter: 0.3 }, { cpuMs: CPU_MS, stallMs: 20 });
		const far = simulate(1000, { latencyMs: 200, jitter: 0.3 }, { cpuMs: CPU_MS, stallMs: 20 });
		expect(far.seconds).toBeLessThanOrEqual(1.3 * (near.seconds + 2 * 0.2));
	});
});

describe('a busy service: it settles near what the service works on at once', () => {
	test.each([4, 16, 64])(
		'%i at a time, 100 ms each: within 1.25 × the service’s own limit, and a few times its workers in flight, not all the items',
		(concurrency) => {
			const items = 100 * concurrency;
			const run = simulate(items, { concurrency, serviceMs: 100 }, { cpuMs: 1 });
			expect(run.seconds).toBeLessThanOrEqual(1.25 * (items / concurrency) * 0.1);
			expect(run.maxInFlight).toBeLessThanOrEqual(5 * concurrency);
			// Settled: over the last half of the run, at least as many as its workers, at most about three times.
			const late = run.limits.filter((entry) => entry.at > (run.seconds * 1000) / 2);
			const settled = late.map((entry) => entry.limit);
			expect(Math.min(...settled)).toBeGreaterThanOrEqual(Math.floor(concurrency * 0.75));
			expect(Math.max(...settled)).toBeLessThanOrEqual(3 * concurrency);
		},
	);

	test('a service that gets busier (16 workers, then 6 from 4 s on) gets fewer in flight', () => {
		const run = simulate(2400, {
			concurrency: 16,
			serviceMs: 100,
			change: { atMs: 4000, concurrency: 6 },
		});
		const at = (from: number, to: number) =>
			run.limits.filter((entry) => entry.at >= from && entry.at < to).map((entry) => entry.limit);
		const before = Math.max(...at(2000, 4000));
		expect(before).toBeGreaterThanOrEqual(16);
		// A few cycles after it got busier, the limit is well under what it was, and no lower than half its 6 workers (a drain round).
		expect(Math.max(...at(9000, Infinity))).toBeLessThanOrEqual(before / 2);
		expect(Math.min(...at(9000, Infinity))).toBeGreaterThanOrEqual(3);
	});

	test('a service whose answers slow down (100 ms, then 300 ms from 3 s on) gets no more in flight', () => {
		const run = simulate(1600, {
			concurrency: 16,
			serviceMs: 100,
			change: { atMs: 3000, factor: 3 },
		});
		const before = run.limits.filter((entry) => entry.at > 2000 && entry.at < 3000);
		const after = run.limits.filter((entry) => entry.at > 5000);
		expect(Math.max(...after.map((entry) => entry.limit))).toBeLessThanOrEqual(
			Math.max(...before.map((entry) => entry.limit)),
		);
	});
});

describe('bounds', () => {
	test('never above the ceiling: 2,000 items 500 ms away with a ceiling of 40', () => {
		const run = simulate(2000, { latencyMs: 500 }, { cpuMs: CPU_MS, ceiling: 40 });
		expect(run.maxInFlight).toBe(40);
		expect(Math.max(...run.limits.map((entry) => entry.limit))).toBe(40);
	});

	test('never below one: a service of one worker that slows tenfold', () => {
		const run = simulate(300, {
			concurrency: 1,
			serviceMs: 20,
			change: { atMs: 1000, factor: 10 },
		});
		expect(Math.min(...run.limits.map((entry) => entry.limit))).toBeGreaterThanOrEqual(1);
		expect(run.maxInFlight).toBeGreaterThanOrEqual(1);
	});

	test('near, the start is the pacer’s old slow start: one at first, half a request more per answer', () => {
		let now = 0;
		const limit = new LatencyLimit(512, () => now);
		const limits: number[] = [];
		for (let i = 0; i < 12; i++) {
			limits.push(limit.limit);
			const sent = limit.started(limit.limit - 1);
			now += 2;
			limit.ended(sent, true);
		}
		expect(limits).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
	});

	test('a request that ended without an answer (a timeout, a reset) changes nothing', () => {
		let now = 0;
		const limit = new LatencyLimit(512, () => now);
		for (let i = 0; i < 5; i++) {
			const sent = limit.started(0);
			now += 1000;
			limit.ended(sent, false);
		}
		expect(limit.limit).toBe(1);
		expect(limit.settled).toBe(false);
	});
});
