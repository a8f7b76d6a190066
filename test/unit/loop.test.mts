// The run loop as a state machine, without n8n: a scripted service answers
// each request, on a virtual clock, and each item's final state is checked.
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import type { HttpAnswer } from '../../nodes/OutreachSequences/transport/failure.ts';
import { limited, run, scriptedService, SETTINGS, states, status } from './loop-helpers.mts';

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
		settings: {
			stopAtFirstFailure: true,
			batching: { groupSize: 1, pauseMs: 0, batched: false, fixed: false },
		},
	});
	expect(loop.firstFailure).toBe(2);
	expect(states(loop.items)).toEqual(['done', 'done', 'failed', 'pending', 'pending', 'pending']);
	expect(service.sent).toEqual(['/v1/items/0', '/v1/items/1', '/v1/items/2']);
});

test('the lowest failed item is the one On Error = Stop stops at', async () => {
	const { loop } = await run(4, {
		invalid: [3, 1],
		settings: {
			stopAtFirstFailure: true,
			batching: { groupSize: 4, pauseMs: 0, batched: false, fixed: false },
		},
	});
	expect(loop.firstFailure).toBe(1);
});

test('a stopped execution sends nothing more', async () => {
	const { loop, service } = await run(10, {
		cancelAfter: 3,
		settings: { batching: { groupSize: 1, pauseMs: 0, batched: false, fixed: false } },
	});
	expect(service.sent).toHaveLength(3);
	expect(states(loop.items).filter((state) => state === 'done')).toHaveLength(3);
});

test('batching: at most Items per Batch in flight, and the interval between batches', async () => {
	const { service, clock } = await run(7, {
		settings: { batching: { groupSize: 3, pauseMs: 1000, batched: true, fixed: false } },
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

test('under Stop, an item that waits for its claim when another fails is not sent', async () => {
	// Items 6 and 7 have their turn while item 5 is out; their claims land only after item 5 failed.
	const { loop, service } = await run(8, {
		script: { '/v1/items/5': [status(400)] },
		settings: { stopAtFirstFailure: true },
		claim: async (index) => {
			if (index >= 6) await new Promise<void>((resolve) => setTimeout(resolve, 0));
			return undefined;
		},
	});
	expect(loop.firstFailure).toBe(5);
	expect(service.sent.filter((path) => path === '/v1/items/6' || path === '/v1/items/7')).toEqual(
		[],
	);
});
