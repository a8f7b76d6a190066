// The sandbox's capacity (sandbox/capacity.mts): C requests worked on at once,
// the others in line, first come first served. On the virtual clock
// (test/harness/virtual-clock.mts).
import { Workers } from '../../sandbox/capacity.mts';
import { VirtualClock } from '../harness/virtual-clock.mts';

test('4 at once, 100 ms each: 10 requests at once end in three waves, in the order they came', async () => {
	const clock = new VirtualClock();
	const workers = new Workers({ concurrency: 4, serviceMs: 100 }, clock);
	const ended: Array<[number, number]> = [];
	const all = Promise.all(
		Array.from({ length: 10 }, async (_, request) => {
			await workers.work();
			ended.push([request, clock.now]);
		}),
	);
	await clock.run(all);
	expect(ended.map(([request]) => request)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
	expect(ended.map(([, at]) => at)).toEqual([100, 100, 100, 100, 200, 200, 200, 200, 300, 300]);
});

test('a worker that is done takes the next request: two in turn take two service times', async () => {
	const clock = new VirtualClock();
	const workers = new Workers({ concurrency: 2, serviceMs: 50 }, clock);
	await clock.run(workers.work());
	await clock.run(workers.work());
	expect(clock.now).toBe(100);
});

test('a capacity needs at least one worker', () => {
	expect(() => new Workers({ concurrency: 0, serviceMs: 100 })).toThrow(/at least 1/);
});
