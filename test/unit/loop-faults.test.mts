// Push-backs, passing faults and a dead service through the run loop and the
// shared pace (loop-helpers.mts), on the virtual clock, 32 in flight at most:
// what is sent again and when, what slows the pace, what the run report counts,
// and when the breaker stops the run.
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { BREAKER_PAUSE_MS } from '../../nodes/OutreachSequences/run/pace/breaker.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';
import type { Scripted } from './loop-helpers.mts';
import { batching, firstOf, LATENCY_MS, run, TIMEOUT_MS, warmPace } from './loop-helpers.mts';

const GET = { readOnly: true };
const outcomeOf = (item: { state: string }) =>
	item.state === 'failed' && 'failure' in item
		? failureFacts(item.failure as never).outcome
		: item.state;

describe("item 0's first answer, to a create and to a get, on a pace warmed by 20 creates", () => {
	test.each<[string, Scripted, string, string, boolean]>([
		// what, answer, create ends, get ends, slows the shared pace
		['a 429 with Retry-After', { status: 429, retryAfter: '1' }, 'done', 'done', true],
		['a 429 without it', 429, 'done', 'done', true],
		['a 503 with Retry-After', { status: 503, retryAfter: '2' }, 'done', 'done', true],
		// A gateway may have passed the create on; the 503 still slows the pace, as every 503 does.
		['a 503 without it', 503, 'mayHaveActed', 'done', true],
		['HTTP 500', 500, 'mayHaveActed', 'done', false],
		['HTTP 502', 502, 'mayHaveActed', 'done', false],
		['HTTP 504', 504, 'mayHaveActed', 'done', false],
		['a reset', 'reset', 'mayHaveActed', 'done', false],
		['a timeout', 'timeout', 'mayHaveActed', 'done', false],
		// No redirect is followed.
		['HTTP 301', 301, 'mayHaveActed', 'notActed', false],
		['HTTP 303', 303, 'mayHaveActed', 'notActed', false],
		['HTTP 307', 307, 'mayHaveActed', 'notActed', false],
		['HTTP 400', 400, 'notActed', 'notActed', false],
	])(
		'%s (%j): a create %s, a get %s; slows the pace: %s',
		async (_, answer, create, get, slows) => {
			for (const [readOnly, ends] of [
				[false, create],
				[true, get],
			] as const) {
				const { pace, clock, before } = await warmPace();
				const { loop, states, sent, sendsOf, logs, summary } = await run(5, {
					script: firstOf(0, answer),
					settings: { readOnly },
					pace,
					clock,
				});
				expect([readOnly, outcomeOf(loop.items[0]), sendsOf(0)]).toEqual([
					readOnly,
					ends,
					ends === 'done' ? 2 : 1,
				]);
				expect(states.slice(1)).toEqual(Array(4).fill('done'));
				expect(summary.pushBacks).toBe(slows ? 1 : 0);
				expect(summary.transientRetried).toBe(!slows && ends === 'done' ? 1 : 0);
				expect(logs).toHaveLength(slows ? 1 : 0);
				if (slows) {
					expect(pace.pacer.inFlightLimit).toBeLessThan(before);
				} else {
					expect(pace.pacer.inFlightLimit).toBeGreaterThanOrEqual(before);
					expect([pace.pacer.sendRate, pace.pacer.pausedFor()]).toEqual([Infinity, 0]);
				}
				if (typeof answer === 'object' && ends === 'done') {
					const [first, again] = sent.filter((entry) => entry.index === 0);
					const waitMs = Number(answer.retryAfter) * 1000;
					expect(again.at - first.at - LATENCY_MS).toBeGreaterThanOrEqual(waitMs);
					expect(logs[0]).toContain(`(HTTP ${answer.status}, Retry-After: ${answer.retryAfter})`);
				}
			}
		},
	);
});

describe('when an item is not sent again, it fails with its sends, the wait asked, and why', () => {
	const always429 = () => ({ status: 429, retryAfter: '1' });
	test.each([
		['past Max Retries (3)', always429, { maxRetries: 3 }, 'exhausted', 4, 1000],
		[
			'Retry-After past Max Wait',
			() => ({ status: 429, retryAfter: '120' }),
			{},
			'waitTooLong',
			1,
			120_000,
		],
		['Wait and Retry off', always429, { enabled: false }, 'disabled', 1, undefined],
	])('%s', async (_, script, policy, reason, sends, askedMs) => {
		const { loop, sendsOf, summary } = await run(1, {
			script,
			settings: { policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000, ...policy } },
		});
		expect(loop.items[0]).toMatchObject({
			state: 'failed',
			failure: { kind: 'gaveUp', reason, sends, askedMs },
		});
		expect(sendsOf(0)).toBe(sends);
		expect(summary.notSentAgain[reason as 'disabled']).toBe(1);
	});

	test('a passing fault backs off about 1 s, doubling, each wait within Max Wait', async () => {
		const { loop, sent } = await run(1, {
			script: () => 502,
			settings: { ...GET, policy: { enabled: true, maxRetries: 3, maxWaitMs: 3000 } },
		});
		expect(loop.items[0]).toMatchObject({ failure: { reason: 'exhausted', sends: 4 } });
		// random() is 0.5, so no jitter: 1 s, 2 s, then 4 s held to Max Wait's 3 s.
		const gaps = sent.slice(1).map((entry, index) => entry.at - sent[index].at - LATENCY_MS);
		expect(gaps).toEqual([1000, 2000, 3000]);
	});
});

describe("a service's rate-limit headers", () => {
	const quota = (remaining: number, reset: number): Scripted => ({
		status: 200,
		headers: { ratelimit: `"default";r=${remaining};t=${reset}` },
	});

	test('an answer that leaves nothing beyond the requests under way holds every new start until the refill, with one log line', async () => {
		// Item 0's answer says 3 are left: nothing else is under way, so the node goes on. Item 1's says 0, for 2 s.
		const { sent, logs, summary } = await run(3, {
			script: (index) => [quota(3, 2), quota(0, 2), 200][index],
			settings: batching(1),
		});
		expect(sent.map((entry) => entry.at)).toEqual([0, LATENCY_MS, 2 * LATENCY_MS + 2000]);
		expect(summary.pushBacks).toBe(1);
		expect(logs).toEqual([expect.stringContaining('(0 left, refilled in 2 seconds)')]);
	});

	test('headers that still leave room hold nothing back', async () => {
		const roomy = {
			status: 200,
			headers: { 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': '60' },
		};
		const { ms, logs } = await run(3, { script: () => roomy, settings: batching(1) });
		expect([ms, logs]).toEqual([3 * LATENCY_MS, []]);
	});
});

test("waiting behind another execution's push-back costs an item none of its retries: only rejections it received count", async () => {
	// Two executions share one service's pace. A's first answers are 429s with a 5 s wait; B starts meanwhile
	// with Max Retries = 0, so any retry counted against B's items would fail them.
	const clock = new VirtualClock();
	const pace = new ServicePace(32, () => clock.now);
	const [a, b] = await Promise.all([
		run(1, {
			pace,
			clock,
			script: (_, sends) => (sends < 2 ? { status: 429, retryAfter: '5' } : 200),
		}),
		run(3, {
			pace,
			clock,
			settings: { policy: { enabled: true, maxRetries: 0, maxWaitMs: 60_000 } },
		}),
	]);
	expect(a.loop.items[0]).toMatchObject({ state: 'done', sends: 3 });
	expect(b.loop.items.map((item) => [item.state, 'sends' in item && item.sends])).toEqual(
		Array(3).fill(['done', 1]),
	);
	// B's items were held back by A's pause: none went out before A's first 5 s wait was over.
	expect(Math.min(...b.sent.map((entry) => entry.at))).toBeGreaterThanOrEqual(5000);
});

describe('a passing fault backs off the item alone', () => {
	test('while one item backs off, the others are not held back', async () => {
		const { sent } = await run(10, { script: firstOf(0, 504), settings: GET });
		const others = sent.filter((entry) => entry.index !== 0);
		expect(Math.max(...others.map((entry) => entry.at))).toBeLessThan(1000);
	});

	test('at a gateway that fails every 5th item once, the breaker never opens, and the run costs one backoff', async () => {
		const clean = await run(100, { settings: GET });
		const flaky = await run(100, {
			script: (index, sends) => (index % 5 === 4 && sends === 0 ? 502 : 200),
			settings: GET,
		});
		expect(flaky.states).toEqual(Array(100).fill('done'));
		expect(flaky.pace.breaker.opened).toBe(0);
		expect(flaky.ms).toBeLessThanOrEqual(1.3 * clean.ms + 1250);
	});
});

describe('a dead service ends the run fast (the breaker)', () => {
	test('20 creates past a 1 s timeout: it opens with at most 10 sent; the rest fail at once, unsent, notActed', async () => {
		const { loop, sent, ms, pace } = await run(20, { script: () => 'timeout' });
		expect(sent.length).toBeLessThanOrEqual(10);
		expect(pace.breaker.tripCount).toBe(1);
		const unsent = loop.items.flatMap((item) =>
			item.state === 'failed' && item.failure.kind === 'serviceDown' ? [item.failure] : [],
		);
		expect(unsent).toHaveLength(20 - sent.length);
		for (const failure of unsent)
			expect(failureFacts(failure)).toMatchObject({ timesSent: 0, outcome: 'notActed' });
		// Each sent one timed out once; then a pause and the probe.
		expect(ms).toBeLessThanOrEqual(sent.length * TIMEOUT_MS + BREAKER_PAUSE_MS + 100);
	});

	test('1,000 gets into a gateway whose service is down (every answer HTTP 502): seconds, and a handful of requests', async () => {
		const { states, sent, ms, summary } = await run(1000, { script: () => 502, settings: GET });
		expect(sent.length).toBeLessThanOrEqual(12);
		expect(ms).toBeLessThan(5000);
		expect(states).toEqual(Array(1000).fill('failed'));
		expect(summary.breakerOpened).toBe(1);
	});

	test('a probe that gets an answer closes it, and the run goes on', async () => {
		const { states, pace } = await run(12, {
			script: (_, __, request) => (request < 5 ? 'timeout' : 200),
		});
		expect([pace.breaker.opened, pace.breaker.tripCount]).toEqual([1, 0]);
		expect(states.filter((state) => state === 'done')).toHaveLength(7);
	});

	test('it never opens on 429 or 503, which the pace handles', async () => {
		const { states, pace } = await run(12, {
			script: (_, sends) => (sends < 1 ? { status: 503, retryAfter: '1' } : 200),
			settings: GET,
		});
		expect(pace.breaker.opened).toBe(0);
		expect(states).toEqual(Array(12).fill('done'));
	});

	test('an item that waited out a backoff when it tripped is not sent again, and keeps the fault it met', async () => {
		const { loop } = await run(3, { script: () => 'reset', settings: GET });
		const waited = loop.items.flatMap((item) =>
			item.state === 'failed' && item.failure.kind === 'serviceDown' && item.failure.sends > 0
				? [item.failure]
				: [],
		);
		expect(waited.length).toBeGreaterThan(0);
		for (const failure of waited)
			expect(failureFacts(failure)).toMatchObject({
				networkError: 'reset',
				outcome: 'mayHaveActed',
			});
	});
});
