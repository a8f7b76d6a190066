// The sandbox's capacity (sandbox/capacity.mts): C requests worked on at once,
// the others in line, first come first served, each one's time in line kept.
// On the virtual clock (test/harness/virtual-clock.mts).
import { lineSummary, Workers } from '../../sandbox/capacity.mts';
import { VirtualClock } from '../harness/virtual-clock.mts';

const timeOf = (clock: VirtualClock) => ({ now: () => clock.now, sleep: clock.sleep });

test('4 at once, 100 ms each: 10 requests at once end in three waves, and wait 0, 100 and 200 ms in line', async () => {
	const clock = new VirtualClock();
	const workers = new Workers({ concurrency: 4, serviceMs: 100 }, timeOf(clock));
	const ended: Array<{ request: number; lineMs: number; at: number }> = [];
	const all = Promise.all(
		Array.from({ length: 10 }, async (_, request) => {
			const lineMs = await workers.work();
			ended.push({ request, lineMs, at: clock.now });
		}),
	);
	await clock.run(all);
	expect(ended.map(({ request, lineMs, at }) => [request, lineMs, at])).toEqual([
		[0, 0, 100],
		[1, 0, 100],
		[2, 0, 100],
		[3, 0, 100],
		[4, 100, 200],
		[5, 100, 200],
		[6, 100, 200],
		[7, 100, 200],
		[8, 200, 300],
		[9, 200, 300],
	]);
	expect(workers.waiting).toBe(0);
});

test('a request that arrives while a worker is free does not wait', async () => {
	const clock = new VirtualClock();
	const workers = new Workers({ concurrency: 2, serviceMs: 50 }, timeOf(clock));
	const first = await clock.run(workers.work());
	const second = await clock.run(workers.work());
	expect([first, second, clock.now]).toEqual([0, 0, 100]);
});

test('a capacity needs at least one worker', () => {
	expect(() => new Workers({ concurrency: 0, serviceMs: 100 })).toThrow(/at least 1/);
});

test('the time in line as the summary gives it: p50, p95 and the longest', () => {
	expect(lineSummary([])).toBeNull();
	const times = Array.from({ length: 100 }, (_, index) => index);
	expect(lineSummary(times)).toEqual({ p50: 50, p95: 95, max: 99 });
});
