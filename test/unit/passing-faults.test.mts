// A flaky gateway costs one backoff, not minutes: the run loop on a virtual
// clock (test/harness/virtual-clock.mts) against a scripted service whose
// answers take time. Only 429 and 503 slow the shared pace; a 500, 502, 504,
// reset or timeout backs off the item alone, and only where a resend is safe;
// when most requests get no useful answer, the breaker ends the run fast.
import type { OutreachRequest } from '../../nodes/OutreachSequences/describe/types.ts';
import { BREAKER_PAUSE_MS } from '../../nodes/OutreachSequences/run/pace/breaker.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import type { NetworkFaultKind } from '../../nodes/OutreachSequences/run/http/failure.ts';
import type { ItemState, LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import type { Attempt } from '../../nodes/OutreachSequences/run/http/transport.ts';
import { attemptOf } from '../../nodes/OutreachSequences/run/http/transport.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';

/** Each answer takes LATENCY_MS; a timeout takes TIMEOUT_MS and gets no answer. */
const LATENCY_MS = 20;
const TIMEOUT_MS = 1000;

type Scripted = number | NetworkFaultKind | { status: number; retryAfter?: string };

/** A service that answers each item's path with the next of its scripted answers, then with 200 (or `otherwise`). */
function service(clock: VirtualClock, script: (path: string, sends: number) => Scripted) {
	const sent: Array<{ path: string; at: number }> = [];
	return {
		sent,
		sendsOf: (index: number) => sent.filter((entry) => entry.path === `/v1/items/${index}`).length,
		async send(request: OutreachRequest): Promise<Attempt> {
			const sends = sent.filter((entry) => entry.path === request.path).length;
			sent.push({ path: request.path, at: clock.now });
			const answer = script(request.path, sends);
			if (typeof answer === 'string') {
				await clock.sleep(answer === 'timeout' ? TIMEOUT_MS : LATENCY_MS);
				return { ok: false, failure: { kind: 'network', fault: answer } };
			}
			await clock.sleep(LATENCY_MS);
			const status = typeof answer === 'number' ? answer : answer.status;
			const headers =
				typeof answer === 'object' && answer.retryAfter ? { 'retry-after': answer.retryAfter } : {};
			return attemptOf(
				{
					statusCode: status,
					headers,
					body: status < 300 ? { path: request.path } : { message: `HTTP ${status}` },
				},
				clock.now,
			);
		},
	};
}

const SETTINGS: LoopSettings = {
	batching: { groupSize: 32, pauseMs: 0, batched: false },
	policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
	readOnly: true,
	stopAtFirstFailure: false,
};

async function run(
	count: number,
	script: (path: string, sends: number) => Scripted,
	settings: Partial<LoopSettings> = {},
	pace?: ServicePace,
	clock = new VirtualClock(),
) {
	const scripted = service(clock, script);
	const shared = pace ?? new ServicePace(32, () => clock.now);
	const loop = new RunLoop(
		count,
		{ ...SETTINGS, ...settings },
		{
			pace: shared,
			prepare: (index) => ({
				method: 'GET',
				path: `/v1/items/${index}`,
				subject: { noun: 'item', id: String(index), verb: 'get', done: 'fetched' },
			}),
			send: (request) => scripted.send(request),
			cancelled: () => false,
			log: () => undefined,
			now: () => clock.now,
			sleep: clock.sleep,
			random: () => 0.5,
		},
	);
	await clock.run(loop.run());
	return { loop, service: scripted, pace: shared, seconds: clock.now / 1000 };
}

const states = (items: ItemState[]) => items.map((item) => item.state);
const ok = () => 200;

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

describe('a dead service ends the run fast', () => {
	test('20 creates past a 1 s timeout: the breaker opens with at most 10 sent; the rest fail at once, unsent, notActed', async () => {
		const {
			loop,
			service: scripted,
			seconds,
			pace,
		} = await run(20, () => 'timeout', { readOnly: false });
		expect(scripted.sent.length).toBeLessThanOrEqual(10);
		expect(pace.breaker.tripCount).toBe(1);
		const unsent = loop.items.filter(
			(item) => item.state === 'failed' && item.failure.kind === 'serviceDown',
		);
		expect(unsent).toHaveLength(20 - scripted.sent.length);
		for (const item of unsent) {
			if (item.state !== 'failed') continue;
			expect(failureFacts(item.failure)).toEqual({
				statusCode: null,
				networkError: null,
				timesSent: 0,
				retryAfterSeconds: null,
				outcome: 'notActed',
			});
		}
		// Each sent one timed out once; then a pause and the probe.
		expect(seconds).toBeLessThanOrEqual(
			(scripted.sent.length * TIMEOUT_MS + BREAKER_PAUSE_MS) / 1000 + 0.1,
		);
	});

	test('1,000 gets into a gateway whose service is down (every answer HTTP 502): seconds, and a handful of requests', async () => {
		const { loop, service: scripted, seconds } = await run(1000, () => 502);
		expect(scripted.sent.length).toBeLessThanOrEqual(12);
		expect(seconds).toBeLessThan(5);
		expect(loop.items.every((item) => item.state === 'failed')).toBe(true);
		const down = loop.report.summarize(loop.items.map(() => undefined)).breakerOpened;
		expect(down).toBe(1);
	});

	test('a probe that gets an answer closes the breaker, and the run goes on at the pace learned', async () => {
		// The first 5 requests time out; the service is back by the probe.
		let sent = 0;
		const { loop, pace } = await run(12, () => (sent++ < 5 ? 'timeout' : 200), { readOnly: false });
		expect(pace.breaker.opened).toBe(1);
		expect(pace.breaker.tripCount).toBe(0);
		expect(states(loop.items).filter((state) => state === 'done')).toHaveLength(7);
		expect(
			loop.items.filter((item) => item.state === 'failed' && item.failure.kind === 'serviceDown'),
		).toHaveLength(0);
	});

	test('it never opens on 429 or 503, which the pace handles', async () => {
		const { loop, pace } = await run(12, (_, sends) =>
			sends < 1 ? { status: 503, retryAfter: '1' } : 200,
		);
		expect(pace.breaker.opened).toBe(0);
		expect(states(loop.items)).toEqual(Array(12).fill('done'));
	});

	test('an item that waited out a backoff when the breaker tripped is not sent again, and keeps the fault it met', async () => {
		const { loop } = await run(3, () => 'reset');
		const waited = loop.items.filter(
			(item) =>
				item.state === 'failed' && item.failure.kind === 'serviceDown' && item.failure.sends > 0,
		);
		expect(waited.length).toBeGreaterThan(0);
		for (const item of waited)
			if (item.state === 'failed')
				expect(failureFacts(item.failure)).toMatchObject({
					networkError: 'reset',
					outcome: 'mayHaveActed',
				});
	});
});
