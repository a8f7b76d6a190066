// The run loop as a state machine, without n8n: a scripted service answers
// each request, on a virtual clock, and each item's final state is checked.
import type { OutreachRequest } from '../../nodes/OutreachSequences/describe/types.ts';
import type { ItemState, LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import type { Prior } from '../../nodes/OutreachSequences/run/outcome/reRun.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import type { HttpAnswer } from '../../nodes/OutreachSequences/run/http/failure.ts';
import type { Attempt } from '../../nodes/OutreachSequences/run/http/transport.ts';
import { attemptOf } from '../../nodes/OutreachSequences/run/http/transport.ts';

type Answer = HttpAnswer | 'reset';

/** A service that answers each path with the next of its scripted answers, then with 200. */
function scriptedService(script: Record<string, Answer[]> = {}) {
	const sent: string[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	return {
		sent,
		maxInFlight: () => maxInFlight,
		async send(request: OutreachRequest, clock: { now: number }): Promise<Attempt> {
			sent.push(request.path);
			inFlight++;
			maxInFlight = Math.max(maxInFlight, inFlight);
			await Promise.resolve();
			inFlight--;
			const answer = script[request.path]?.shift() ?? {
				statusCode: 200,
				headers: {},
				body: { path: request.path },
			};
			if (answer === 'reset')
				return { ok: false, failure: { kind: 'network', fault: 'reset', code: 'ECONNRESET' } };
			return attemptOf(answer, clock.now);
		},
	};
}

const limited = (retryAfter?: string): HttpAnswer => ({
	statusCode: 429,
	headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
	body: {},
});
const status = (statusCode: number): HttpAnswer => ({
	statusCode,
	headers: {},
	body: { message: `HTTP ${statusCode}` },
});

const SETTINGS: LoopSettings = {
	batching: { groupSize: 32, pauseMs: 0, batched: false },
	policy: { enabled: true, maxRetries: 3, maxWaitMs: 60_000 },
	readOnly: false,
	stopAtFirstFailure: false,
};

/** Runs `count` items, item i at /v1/items/i (an item whose path is in `invalid` can't be prepared). */
async function run(
	count: number,
	options: {
		script?: Record<string, Answer[]>;
		settings?: Partial<LoopSettings>;
		invalid?: number[];
		cancelAfter?: number;
		prior?: Record<number, Prior>;
		beforeSend?: (index: number) => Promise<void> | undefined;
	} = {},
) {
	const clock = { now: 0 };
	const service = scriptedService(options.script);
	const logs: string[] = [];
	const settings = { ...SETTINGS, ...options.settings };
	const loop = new RunLoop(count, settings, {
		pace: new ServicePace(settings.batching.groupSize, () => clock.now),
		prepare(index) {
			if (options.invalid?.includes(index)) throw new Error(`item ${index} is invalid`);
			return {
				method: 'POST',
				path: `/v1/items/${index}`,
				subject: { noun: 'item', id: String(index), verb: 'archive', done: 'archived' },
			};
		},
		prior: options.prior ? (index) => options.prior?.[index] : undefined,
		beforeSend: options.beforeSend,
		send: (request) => service.send(request, clock),
		cancelled: () =>
			options.cancelAfter !== undefined && service.sent.length >= options.cancelAfter,
		log: (line) => logs.push(line),
		now: () => clock.now,
		sleep: async (ms) => {
			clock.now += ms;
		},
		random: () => 0.5,
	});
	await loop.run();
	return { loop, service, logs, clock };
}

const states = (items: ItemState[]) => items.map((item) => item.state);

test('every item is sent once and ends done, with the answer as it came', async () => {
	const { loop, service } = await run(5);
	expect(states(loop.items)).toEqual(['done', 'done', 'done', 'done', 'done']);
	expect(loop.items[3]).toEqual({
		state: 'done',
		request: expect.objectContaining({ path: '/v1/items/3' }),
		json: { path: '/v1/items/3' },
		sends: 1,
	});
	expect([...service.sent].sort()).toEqual([
		'/v1/items/0',
		'/v1/items/1',
		'/v1/items/2',
		'/v1/items/3',
		'/v1/items/4',
	]);
	expect(loop.firstFailure).toBeUndefined();
});

test('an item whose request cannot be made fails and is never sent; the others go on', async () => {
	const { loop, service } = await run(3, { invalid: [1] });
	expect(states(loop.items)).toEqual(['done', 'failed', 'done']);
	expect(loop.items[1]).toMatchObject({
		state: 'failed',
		failure: { kind: 'notSent', error: new Error('item 1 is invalid') },
	});
	expect(service.sent).not.toContain('/v1/items/1');
});

test('a 429 is waited out as Retry-After asks, and the item is sent again: one log line, the wait on the clock', async () => {
	const { loop, service, logs, clock } = await run(3, {
		script: { '/v1/items/1': [limited('2')] },
	});
	expect(states(loop.items)).toEqual(['done', 'done', 'done']);
	expect(loop.items[1]).toMatchObject({ state: 'done', sends: 2 });
	expect(service.sent.filter((path) => path === '/v1/items/1')).toHaveLength(2);
	expect(logs).toEqual([
		expect.stringMatching(
			/^Outreach Sequences: the service pushed back \(HTTP 429, Retry-After: 2\); no new request starts for 2 seconds/,
		),
	]);
	expect(clock.now).toBeGreaterThanOrEqual(2000);
});

test('a create is never sent again after a 502 or a reset; a read-only get is', async () => {
	const script = () => ({ '/v1/items/0': [status(502)], '/v1/items/1': ['reset' as const] });
	const create = await run(2, { script: script() });
	expect(create.loop.items).toEqual([
		expect.objectContaining({
			state: 'failed',
			failure: expect.objectContaining({ kind: 'gaveUp', reason: 'notSafe', sends: 1 }),
		}),
		expect.objectContaining({
			state: 'failed',
			failure: expect.objectContaining({ kind: 'gaveUp', reason: 'notSafe', sends: 1 }),
		}),
	]);
	expect(create.service.sent).toHaveLength(2);
	const get = await run(2, { script: script(), settings: { readOnly: true } });
	expect(get.loop.items).toEqual([
		expect.objectContaining({ state: 'done', sends: 2 }),
		expect.objectContaining({ state: 'done', sends: 2 }),
	]);
});

test('after Max Retries, the item fails with how often it was sent and the wait last asked for', async () => {
	const { loop, service } = await run(1, {
		script: {
			'/v1/items/0': [limited('1'), limited('1'), limited('1'), limited('1'), limited('1')],
		},
	});
	expect(loop.items[0]).toMatchObject({
		state: 'failed',
		failure: { kind: 'gaveUp', reason: 'exhausted', sends: 4, askedMs: 1000 },
	});
	expect(service.sent).toHaveLength(4);
});

test('a wait longer than Max Wait fails the item at once', async () => {
	const { loop } = await run(1, { script: { '/v1/items/0': [limited('120')] } });
	expect(loop.items[0]).toMatchObject({
		state: 'failed',
		failure: { kind: 'gaveUp', reason: 'waitTooLong', sends: 1, askedMs: 120_000 },
	});
});

test('On Error = Stop: nothing after the first failed item is sent; items before it still are', async () => {
	const { loop, service } = await run(6, {
		script: { '/v1/items/2': [status(400)] },
		settings: { stopAtFirstFailure: true, batching: { groupSize: 1, pauseMs: 0, batched: false } },
	});
	expect(loop.firstFailure).toBe(2);
	expect(states(loop.items)).toEqual(['done', 'done', 'failed', 'pending', 'pending', 'pending']);
	expect(service.sent).toEqual(['/v1/items/0', '/v1/items/1', '/v1/items/2']);
});

test('the lowest failed item is the one On Error = Stop stops at', async () => {
	const { loop } = await run(4, {
		invalid: [3, 1],
		settings: { stopAtFirstFailure: true, batching: { groupSize: 4, pauseMs: 0, batched: false } },
	});
	expect(loop.firstFailure).toBe(1);
});

test('a stopped execution sends nothing more', async () => {
	const { loop, service } = await run(10, {
		cancelAfter: 3,
		settings: { batching: { groupSize: 1, pauseMs: 0, batched: false } },
	});
	expect(service.sent).toHaveLength(3);
	expect(states(loop.items).filter((state) => state === 'done')).toHaveLength(3);
});

test('batching: at most Items per Batch in flight, and the interval between batches', async () => {
	const { service, clock } = await run(7, {
		settings: { batching: { groupSize: 3, pauseMs: 1000, batched: true } },
	});
	expect(service.sent).toHaveLength(7);
	expect(service.maxInFlight()).toBeLessThanOrEqual(3);
	expect(clock.now).toBe(2000);
});

test('an answer whose rate-limit headers leave nothing beyond the requests under way holds every new start until the refill, with one log line', async () => {
	const quota = (remaining: number, reset: number): HttpAnswer => ({
		statusCode: 200,
		headers: { ratelimit: `"default";r=${remaining};t=${reset}` },
		body: {},
	});
	// Item 0's answer says 3 are left: nothing else is under way, so the node goes on. Item 1's says 0 are left, for 2 seconds.
	const { service, logs, clock } = await run(3, {
		script: { '/v1/items/0': [quota(3, 2)], '/v1/items/1': [quota(0, 2)] },
	});
	expect(service.sent).toEqual(['/v1/items/0', '/v1/items/1', '/v1/items/2']);
	expect(clock.now).toBeGreaterThanOrEqual(2000);
	expect(logs).toEqual([
		"Outreach Sequences: the service's rate-limit headers say its quota is used up (0 left, refilled in 2 seconds); no new request starts for 2 seconds, then 1 item goes on at up to 1 in flight",
	]);
});

test('headers that still leave room hold nothing back', async () => {
	const roomy: HttpAnswer = {
		statusCode: 200,
		headers: { 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': '60' },
		body: {},
	};
	const { clock, logs } = await run(3, {
		script: { '/v1/items/0': [roomy], '/v1/items/1': [roomy] },
	});
	expect(clock.now).toBe(0);
	expect(logs).toEqual([]);
});

test("waiting behind another execution's push-back costs an item none of its retries: only rejections it received count", async () => {
	// Two executions share one service's pace. A's first answers are 429s with a 5 s wait; B starts meanwhile
	// with Max Retries = 0, so any retry counted against B's items would fail them.
	const clock = { now: 0 };
	const pace = new ServicePace(32, () => clock.now);
	const service = scriptedService({ '/v1/a/0': [limited('5'), limited('5')] });
	const sentAt: Array<[string, number]> = [];
	const loopFor = (name: string, count: number, maxRetries: number) =>
		new RunLoop(
			count,
			{ ...SETTINGS, policy: { enabled: true, maxRetries, maxWaitMs: 60_000 } },
			{
				pace,
				prepare: (index) => ({
					method: 'POST',
					path: `/v1/${name}/${index}`,
					subject: { noun: 'item', id: String(index), verb: 'archive', done: 'archived' },
				}),
				send: (request) => {
					sentAt.push([request.path, clock.now]);
					return service.send(request, clock);
				},
				cancelled: () => false,
				log: () => undefined,
				now: () => clock.now,
				sleep: async (ms) => {
					clock.now += ms;
				},
				random: () => 0.5,
			},
		);
	const a = loopFor('a', 1, 3);
	const b = loopFor('b', 3, 0);
	await Promise.all([a.run(), b.run()]);
	expect(a.items).toEqual([
		{
			state: 'done',
			request: expect.objectContaining({ path: '/v1/a/0' }),
			json: { path: '/v1/a/0' },
			sends: 3,
		},
	]);
	expect(states(b.items)).toEqual(['done', 'done', 'done']);
	expect(b.items.map((item) => (item.state === 'done' ? item.sends : undefined))).toEqual([
		1, 1, 1,
	]);
	// B's items were held back by A's pause: none went out before A's first 5 s wait was over.
	const bSent = sentAt.filter(([path]) => path.startsWith('/v1/b/')).map(([, at]) => at);
	expect(bSent).toHaveLength(3);
	expect(Math.min(...bSent)).toBeGreaterThanOrEqual(5000);
});

test('under Stop, an item that waits for its journal mark when another fails is not sent', async () => {
	// Items 6 and 7 have their turn while item 5 is out; their marks land only after item 5 failed.
	const { loop, service } = await run(8, {
		script: { '/v1/items/5': [status(400)] },
		settings: { stopAtFirstFailure: true },
		beforeSend: (index) =>
			index >= 6 ? new Promise<void>((resolve) => setTimeout(resolve, 0)) : undefined,
	});
	expect(loop.firstFailure).toBe(5);
	expect(service.sent.filter((path) => path === '/v1/items/6' || path === '/v1/items/7')).toEqual(
		[],
	);
});

describe('what an earlier try or execution did (reRun.ts): the prior', () => {
	test('an item with an answer is not sent: it ends done with that answer, and counts by its event', async () => {
		const kept = { id: 'seq-7', name: 'kept' };
		const { loop, service } = await run(3, {
			prior: {
				1: { kind: 'answer', json: kept, event: 'kept' },
				2: { kind: 'send', event: 'sentAgain' },
			},
		});
		expect(service.sent).toEqual(['/v1/items/0', '/v1/items/2']);
		expect(loop.items[1]).toEqual({
			state: 'done',
			request: expect.objectContaining({ path: '/v1/items/1' }),
			json: kept,
			sends: 0,
		});
		expect(loop.items[2]).toMatchObject({ state: 'done', sends: 1 });
		const summary = loop.report.summarize(loop.items.map(() => undefined));
		expect(summary.earlierTry).toMatchObject({ kept: 1, sentAgain: 1, answered: 0 });
		expect(summary.keptIds).toEqual(['seq-7']);
	});

	test('an item with a failure fails unsent, and the others go on', async () => {
		const request = {
			method: 'POST' as const,
			path: '/v1/items/0',
			subject: { noun: 'item', verb: 'archive', done: 'archived' },
		};
		const { loop, service } = await run(2, {
			prior: {
				0: {
					kind: 'fail',
					failure: { kind: 'carriedOutBefore', request, crashed: true, itemIndex: 0 },
					event: 'failedAgain',
				},
			},
		});
		expect(service.sent).toEqual(['/v1/items/1']);
		expect(loop.items[0]).toMatchObject({ state: 'failed', failure: { kind: 'carriedOutBefore' } });
	});

	test('under On Error = Stop, items answered before never stop the run; one failed before does', async () => {
		const { loop, service } = await run(3, {
			prior: { 0: { kind: 'answer', json: { id: 'a' }, event: 'answered' } },
			script: { '/v1/items/2': [status(400)] },
			settings: {
				stopAtFirstFailure: true,
				batching: { groupSize: 1, pauseMs: 0, batched: false },
			},
		});
		expect(service.sent).toEqual(['/v1/items/1', '/v1/items/2']);
		expect(loop.firstFailure).toBe(2);
	});
});

describe('the run report (what the hints say)', () => {
	test('a clean run: no push-back, no wait, nothing sent again', async () => {
		const { loop } = await run(4);
		expect(loop.report.summarize(loop.items.map(() => undefined))).toMatchObject({
			pushBacks: 0,
			waitedRequests: 0,
			heldBackMs: 0,
			retriedItems: 0,
		});
	});

	test('a 429 asking for 2 s: one push-back, the item sent again, and the requests behind it held back for the wait', async () => {
		const { loop, clock } = await run(3, { script: { '/v1/items/1': [limited('2')] } });
		const summary = loop.report.summarize(loop.items.map(() => undefined));
		expect(summary.pushBacks).toBe(1);
		expect(summary.retriedItems).toBe(1);
		expect(summary.waitedRequests).toBeGreaterThanOrEqual(1);
		expect(summary.longestWaitMs).toBeGreaterThanOrEqual(2000);
		expect(summary.heldBackMs).toBeGreaterThanOrEqual(2000);
		expect(summary.heldBackMs).toBeLessThanOrEqual(clock.now);
	});

	test('an item that gave up after its retries counts as retried and failed', async () => {
		const { loop } = await run(2, {
			script: { '/v1/items/0': [limited('1'), limited('1')] },
			settings: { policy: { enabled: true, maxRetries: 1, maxWaitMs: 60_000 } },
		});
		expect(loop.items[0]).toMatchObject({ state: 'failed' });
		const ends = loop.items.map((item) => (item.state === 'failed' ? 'rejected' : undefined));
		expect(loop.report.summarize(ends)).toMatchObject({
			pushBacks: 2,
			retriedItems: 1,
			retriedFailed: 1,
			notSentAgain: { disabled: 0, exhausted: 1, waitTooLong: 0 },
		});
	});

	test('a 502 on a create is not a push-back and is not sent again', async () => {
		const { loop } = await run(1, { script: { '/v1/items/0': [status(502)] } });
		expect(loop.report.summarize(['mayHaveActed'])).toMatchObject({
			pushBacks: 0,
			retriedItems: 0,
			waitedRequests: 0,
			notSentAgain: { disabled: 0, exhausted: 0, waitTooLong: 0 },
		});
	});

	test('a 429 asking for longer than Max Wait: a push-back, not sent again, and the report says why', async () => {
		const { loop } = await run(1, { script: { '/v1/items/0': [limited('120')] } });
		expect(loop.items[0]).toMatchObject({ state: 'failed' });
		expect(loop.report.summarize(['rejected'])).toMatchObject({
			pushBacks: 1,
			retriedItems: 0,
			notSentAgain: { disabled: 0, exhausted: 0, waitTooLong: 1 },
		});
	});
});
