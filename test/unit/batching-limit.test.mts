// Request Options › Batching › Limit through the run loop and the shared pace,
// on the virtual clock (loop-helpers.mts), archives against a far service (every
// answer after the same delay) or a busy one (C at once: sandbox/capacity.mts):
// Automatic ramps up from one request in flight, Fixed sends Items per Batch
// from the first request, and after a 429 or 503 either halves and grows back,
// up to Items per Batch. And what the run report says of the limit, for the hint.
import { limitHint } from '../../nodes/OutreachSequences/run/outcome/hints.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';
import type { RunOptions } from './loop-helpers.mts';
import { batching, run } from './loop-helpers.mts';

const DEFAULT = batching(32);
/** The service's request `request` (in order) is answered `status` with Retry-After: 1. */
const pushBack =
	(request: number, status: 429 | 503): RunOptions['script'] =>
	(_, __, at) =>
		at === request ? { status, retryAfter: '1' } : 200;
/** `count` archives at `settings` (Batching) against a service whose answers take `latencyMs`. */
const runAt = (
	count: number,
	settings: ReturnType<typeof batching>,
	options: RunOptions & { latencyMs: number },
	clock?: VirtualClock,
	pace?: ServicePace,
) => run(count, { ...options, settings, clock, pace });

/** How many requests started at each moment, in order of time. */
const rounds = (starts: Array<{ at: number }>) => {
	const counts = new Map<number, number>();
	for (const { at } of starts) counts.set(at, (counts.get(at) ?? 0) + 1);
	return [...counts.values()];
};

describe('Limit Fixed and Automatic, every answer after 500 ms', () => {
	test('Fixed 256: the first 256 requests start at once, and 1,000 archives take ⌈1,000 ÷ 256⌉ round trips', async () => {
		const { states, sent, ms } = await runAt(1000, batching(256, true), { latencyMs: 500 });
		expect(states.every((state) => state === 'done')).toBe(true);
		expect(rounds(sent)).toEqual([256, 256, 256, 232]);
		expect(ms).toBe(Math.ceil(1000 / 256) * 500);
	});

	test('Automatic 256, as the node runs today: one request at first, half a request more per answer, so it takes far longer', async () => {
		const fixed = await runAt(1000, batching(256, true), { latencyMs: 500 });
		const automatic = await runAt(1000, batching(256), { latencyMs: 500 });
		expect(rounds(automatic.sent).slice(0, 5)).toEqual([1, 1, 2, 3, 4]);
		expect(automatic.ms).toBeGreaterThan(3 * fixed.ms);
	});
});

/** The most requests under way at the service when one started between `from` and `to`. */
const most = (starts: Array<{ at: number; inFlight: number }>, from: number, to = Infinity) =>
	Math.max(...starts.filter(({ at }) => at >= from && at < to).map(({ inFlight }) => inFlight));

test.each([429, 503] as const)(
	'Fixed 16: after a %d nothing starts for its Retry-After, then the limit halves and grows back, up to 16',
	async (status) => {
		// Request 40 is in the third round of 16 (sent at 200 ms, answered at 300 ms), and asks for 1 s.
		const { states, sent, summary, pace } = await runAt(2000, batching(16, true), {
			latencyMs: 100,
			script: pushBack(40, status),
		});
		expect(states.every((state) => state === 'done')).toBe(true);
		expect(summary.pushBacks).toBe(1);
		expect(sent.some(({ at }) => at > 300 && at < 1300)).toBe(false);
		expect(most(sent, 1300, 1400)).toBeLessThanOrEqual(16 / 2 + 1);
		expect(most(sent, 1400)).toBeGreaterThan(16 / 2 + 1);
		expect(pace.pacer.inFlightLimit).toBe(16);
	},
);

describe('Fixed joining a pace another execution uses (one service, one n8n process)', () => {
	test('a pace still in slow start: it opens to its Items per Batch at once', async () => {
		const clock = new VirtualClock();
		const pace = new ServicePace(32, () => clock.now);
		await runAt(4, DEFAULT, { latencyMs: 100 }, clock, pace);
		expect(pace.pacer.inFlightLimit).toBeLessThan(64);
		const joined = await runAt(200, batching(64, true), { latencyMs: 100 }, clock, pace);
		expect(rounds(joined.sent)[0]).toBe(64);
	});

	test('a pace the service pushed back on: it starts at the limit learned there, not at its Items per Batch', async () => {
		const clock = new VirtualClock();
		const pace = new ServicePace(16, () => clock.now);
		await runAt(48, batching(16, true), { latencyMs: 100, script: pushBack(40, 429) }, clock, pace);
		const learned = pace.pacer.inFlightLimit;
		expect(learned).toBeLessThan(16);
		const from = clock.now;
		const joined = await runAt(200, batching(64, true), { latencyMs: 100 }, clock, pace);
		// Its first round trip: no more than the learned limit, at the learned send rate.
		expect(most(joined.sent, from, from + 100)).toBeLessThanOrEqual(learned);
		expect(most(joined.sent, from)).toBeGreaterThan(learned);
	});
});

test('at the default, a service that works on 16 at once, 100 ms each: 1,000 archives within 1.25 × its own limit', async () => {
	const { ms } = await runAt(1000, DEFAULT, { latencyMs: 100, concurrency: 16 });
	expect(ms).toBeLessThanOrEqual(1.25 * (1000 / 16) * 100);
});

describe('what the run report says of the limit, for the limit hint', () => {
	test('a far service at the default: the limit was full for most of the run, with no push-back, and the hint says so', async () => {
		const { summary } = await runAt(1000, DEFAULT, { latencyMs: 200 });
		expect(summary.pushBacks).toBe(0);
		expect(summary.limit.fullMs).toBeGreaterThanOrEqual(0.9 * summary.limit.runMs);
		expect(summary.limit.heldAt).toBe(32);
		expect(summary.limit.quickestAnswerMs).toBe(200);
		expect(limitHint(summary)).toBeDefined();
	});

	test('Fixed 256 at 500 ms: 300 archives, full for the first of two round trips, get the hint (a larger Items per Batch); 200, never full, do not', async () => {
		const { summary } = await runAt(300, batching(256, true), { latencyMs: 500 });
		expect([summary.limit.fullMs, summary.limit.runMs, summary.limit.heldAt]).toEqual([
			500, 1000, 256,
		]);
		expect(limitHint(summary)).toBeDefined();
		const never = await runAt(200, batching(256, true), { latencyMs: 500 });
		expect(never.summary.limit.fullMs).toBe(0);
		expect(limitHint(never.summary)).toBeUndefined();
	});
});
