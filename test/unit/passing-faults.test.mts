// A flaky gateway costs one backoff, not minutes: the run loop on a virtual
// clock (test/harness/virtual-clock.mts) against a scripted service whose
// answers take time. Only 429 and 503 slow the shared pace; a 500, 502, 504,
// reset or timeout backs off the item alone, and only where a resend is safe.
// When most requests get no useful answer: passing-faults-breaker.test.mts.
import { BREAKER_PAUSE_MS } from '../../nodes/OutreachSequences/run/pace/breaker.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';
import type { Scripted } from './passing-faults-helpers.mts';
import { LATENCY_MS, ok, run, states } from './passing-faults-helpers.mts';

describe('only "too many" sets the pace', () => {
	// A get is sent again after each of these; a create would not be (below).
	test.each<[string, Scripted, boolean]>([
		['HTTP 500', 500, true],
		['HTTP 502', 502, true],
		['HTTP 504', 504, true],
		['a reset', 'reset', true],
		['a timeout', 'timeout', true],
	])(
		'%s leaves the shared pace as it was: no pause, no lower rate, no fewer in flight',
		async (_, fault, sentAgain) => {
			// The pace grows with each success: compare with a clean run of as many successes.
			const clean = await run(sentAgain ? 10 : 9, ok);
			const flaky = await run(10, (path, sends) =>
				path === '/v1/items/0' && sends === 0 ? fault : 200,
			);
			expect(states(flaky.loop.items)).toEqual([
				sentAgain ? 'done' : 'failed',
				...Array(9).fill('done'),
			]);
			expect(flaky.pace.pacer.sendRate).toBe(Infinity);
			expect(flaky.pace.pacer.pausedFor()).toBe(0);
			expect(flaky.pace.pacer.inFlightLimit).toBe(clean.pace.pacer.inFlightLimit);
			expect(flaky.loop.report.summarize(flaky.loop.items.map(() => undefined))).toMatchObject({
				pushBacks: 0,
				transientRetried: sentAgain ? 1 : 0,
			});
		},
	);

	test.each<[string, Scripted]>([
		['a 429', { status: 429, retryAfter: '1' }],
		['a 503', { status: 503, retryAfter: '1' }],
	])(
		'%s still slows it: the pace pauses for the wait asked, and fewer go in flight',
		async (_, pushBack) => {
			const clock = new VirtualClock();
			const pace = new ServicePace(32, () => clock.now);
			// Warm the pace up first, so that halving shows.
			await run(20, ok, {}, pace, clock);
			const before = pace.pacer.inFlightLimit;
			const { loop } = await run(
				5,
				(path, sends) => (path === '/v1/items/0' && sends === 0 ? pushBack : 200),
				{},
				pace,
				clock,
			);
			expect(states(loop.items)).toEqual(Array(5).fill('done'));
			expect(pace.pacer.inFlightLimit).toBeLessThan(before);
			expect(pace.pacer.sendRate).toBeLessThan(Infinity);
			expect(loop.report.summarize(loop.items.map(() => undefined))).toMatchObject({
				pushBacks: 1,
				transientRetried: 0,
			});
		},
	);
});

describe('a passing fault backs off the item alone', () => {
	test('20 gets that each meet one 502: all succeed within 10 s, at most 1.3× the clean run plus one backoff and one pause of the breaker', async () => {
		const clean = await run(20, ok);
		const flaky = await run(20, (_, sends) => (sends === 0 ? 502 : 200));
		expect(states(flaky.loop.items)).toEqual(Array(20).fill('done'));
		expect(flaky.service.sent).toHaveLength(40);
		// The first five 502s look like a dead service: the breaker pauses once, its probe (a resend) gets an
		// answer, and from then on a fault that will be resent counts only if its resend fails. One backoff: about 1 s.
		expect(flaky.pace.breaker.opened).toBe(1);
		expect(flaky.seconds).toBeLessThanOrEqual(1.3 * clean.seconds + 1.25 + BREAKER_PAUSE_MS / 1000);
		expect(flaky.seconds).toBeLessThan(10);
	});

	test('at a gateway that fails every 5th item once, the breaker never opens, and the run costs one backoff', async () => {
		const clean = await run(100, ok);
		const flaky = await run(100, (path, sends) =>
			Number(path.split('/').pop()) % 5 === 4 && sends === 0 ? 502 : 200,
		);
		expect(states(flaky.loop.items)).toEqual(Array(100).fill('done'));
		expect(flaky.pace.breaker.opened).toBe(0);
		expect(flaky.seconds).toBeLessThanOrEqual(1.3 * clean.seconds + 1.25);
	});

	test('the backoff is about 1 s and doubles, each wait within Max Wait, and the item gives up after Max Retries per Item', async () => {
		const { loop, service: scripted } = await run(1, () => 502, {
			policy: { enabled: true, maxRetries: 3, maxWaitMs: 3000 },
		});
		expect(loop.items[0]).toMatchObject({
			state: 'failed',
			failure: { kind: 'gaveUp', reason: 'exhausted', sends: 4 },
		});
		const gaps = scripted.sent
			.slice(1)
			.map((entry, index) => entry.at - scripted.sent[index].at - LATENCY_MS);
		// random() is 0.5, so no jitter: 1 s, 2 s, then 4 s held to Max Wait's 3 s.
		expect(gaps).toEqual([1000, 2000, 3000]);
	});

	test('while one item backs off, the others are not held back', async () => {
		const { service: scripted } = await run(10, (path, sends) =>
			path === '/v1/items/0' && sends === 0 ? 504 : 200,
		);
		const others = scripted.sent.filter((entry) => entry.path !== '/v1/items/0');
		expect(Math.max(...others.map((entry) => entry.at))).toBeLessThan(1000);
	});

	test('nothing the service may have acted on is sent again: a create meets 500, 502, 504, a reset, a timeout', async () => {
		const faults: Scripted[] = [500, 502, 504, 'reset', 'timeout'];
		const { loop, service: scripted } = await run(
			5,
			(path) => faults[Number(path.split('/').pop())],
			{ readOnly: false },
		);
		expect(faults.map((_, index) => scripted.sendsOf(index))).toEqual([1, 1, 1, 1, 1]);
		expect(
			loop.items.map((item) => item.state === 'failed' && failureFacts(item.failure).outcome),
		).toEqual(Array(5).fill('mayHaveActed'));
	});
});
