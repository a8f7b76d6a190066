// The run loop as a state machine, without n8n (loop-helpers.mts): each item's
// final state, what the service received, On Error = Stop, Batching's interval,
// what an earlier try did (the prior), and what throws. On the virtual clock,
// 32 in flight at most unless a test says.
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';
import { batching, run, warmPace } from './loop-helpers.mts';

const STOP = { stopAtFirstFailure: true };

test('every item is sent once and ends done, with the answer as it came, in its place', async () => {
	const { loop, sent } = await run(40);
	expect(loop.items[3]).toEqual({
		state: 'done',
		request: expect.objectContaining({ path: '/v1/items/3' }),
		json: { path: '/v1/items/3' },
		sends: 1,
	});
	expect(loop.items.map((item) => item.state === 'done' && item.json.path)).toEqual(
		Array.from({ length: 40 }, (_, index) => `/v1/items/${index}`),
	);
	expect(sent.map((entry) => entry.index).sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
	expect(Math.max(...sent.map((entry) => entry.inFlight))).toBeLessThanOrEqual(32);
	expect(loop.firstFailure).toBeUndefined();
});

test('an item whose request cannot be made fails and is never sent; the others go on', async () => {
	const { loop, states, sendsOf } = await run(3, { invalid: [1] });
	expect(states).toEqual(['done', 'failed', 'done']);
	expect(loop.items[1]).toMatchObject({
		failure: { kind: 'notSent', error: new Error('item 1 is invalid') },
	});
	expect(sendsOf(1)).toBe(0);
});

describe('On Error = Stop', () => {
	test.each([
		[
			'a 400 to item 2, one at a time',
			{ script: (i: number) => (i === 2 ? 400 : 200) },
			1,
			2,
			[0, 1, 2],
		],
		['items 1 and 3 invalid, 4 at a time: the lowest', { invalid: [3, 1] }, 4, 1, [0]],
		['item 3 invalid, 32 at a time', { invalid: [3] }, 32, 3, [0, 1, 2]],
	])(
		'%s: it stops there; items before it are sent, none after',
		async (_, options, groupSize, stop, sent) => {
			const result = await run(10, { ...options, settings: { ...STOP, ...batching(groupSize) } });
			expect(result.loop.firstFailure).toBe(stop);
			expect(result.sent.map((entry) => entry.index).sort()).toEqual(sent);
			expect(result.states.slice(stop + 1).every((state) => state !== 'done')).toBe(true);
		},
	);

	test('items sent with the failing one are still answered and done after it; none starts once its failure is in', async () => {
		// A pace that learned to send four at once, as a run after others does; item 2 is answered first.
		const { pace, clock } = await warmPace();
		const { loop, sent, states } = await run(8, {
			pace,
			clock,
			settings: { ...STOP, ...batching(4) },
			script: (index) => (index === 2 ? { status: 500, afterMs: 5 } : 200),
		});
		expect(pace.pacer.inFlightLimit).toBeGreaterThanOrEqual(4);
		expect(loop.firstFailure).toBe(2);
		expect(sent.map((entry) => entry.index)).toEqual([0, 1, 2, 3]);
		expect(states).toEqual(['done', 'done', 'failed', 'done', ...Array(4).fill('pending')]);
	});

	test('an item that waits for its claim when another fails is not sent', async () => {
		// The claims of items 6 and 7 are under way when item 5 fails, and land long after.
		const clock = new VirtualClock();
		const { loop, sendsOf } = await run(8, {
			clock,
			script: (index) => (index === 5 ? 400 : 200),
			settings: STOP,
			claim: async (index) => void (index >= 6 && (await clock.sleep(1000))),
		});
		expect(loop.firstFailure).toBe(5);
		expect([sendsOf(5), sendsOf(6), sendsOf(7)]).toEqual([1, 0, 0]);
	});
});

test('a stopped execution sends nothing more', async () => {
	const { states, sent } = await run(10, { cancelAfter: 3, settings: batching(1) });
	expect(sent).toHaveLength(3);
	expect(states.filter((state) => state === 'done')).toHaveLength(3);
});

test('Batching, 3 per batch, 1 s apart: at most 3 in flight, each batch after the one before and the interval', async () => {
	const { sent, ms } = await run(7, { settings: batching(3, true, 1000) });
	expect(sent.map((entry) => entry.at)).toEqual([0, 0, 0, 1020, 1020, 1020, 2040]);
	expect(ms).toBe(2060);
});

describe('what an earlier try or execution did (run/memory/record.ts): the prior', () => {
	test('an item with an answer is not sent: it ends done with that answer; one with a failure fails unsent; each counts by its event', async () => {
		const kept = { id: 'seq-7', name: 'kept' };
		const request = {
			method: 'POST' as const,
			path: '/v1/items/0',
			subject: { noun: 'item', verb: 'archive', done: 'archived' },
		};
		const earlier = { message: '', description: '', statusCode: null, networkError: null };
		const { loop, sent, summary } = await run(4, {
			prior: {
				0: {
					kind: 'fail',
					failure: { kind: 'unknownBefore', request, earlier, itemIndex: 0 },
					event: 'failedAgain',
				},
				1: { kind: 'answer', json: kept, event: 'kept' },
				2: { kind: 'send', event: 'sentAgain' },
			},
		});
		expect(sent.map((entry) => entry.index).sort()).toEqual([2, 3]);
		expect(loop.items[0]).toMatchObject({ state: 'failed', failure: { kind: 'unknownBefore' } });
		expect(loop.items[1]).toMatchObject({ state: 'done', json: kept, sends: 0 });
		expect(summary.earlierTry).toMatchObject({ kept: 1, sentAgain: 1, failedAgain: 1 });
		expect(summary.keptIds).toEqual(['seq-7']);
	});

	test('under Stop, an item answered before never stops the run; after a stop, settle looks up the items not reached, never sends them', async () => {
		const { loop, sent } = await run(5, {
			prior: {
				0: { kind: 'answer', json: { id: 'a' }, event: 'answered' },
				3: { kind: 'answer', json: { id: 'earlier' }, event: 'answered' },
			},
			script: (index) => (index === 2 ? 400 : 200),
			settings: { ...STOP, ...batching(1) },
		});
		expect(loop.firstFailure).toBe(2);
		const turns: number[] = [];
		await loop.settle((index) => void turns.push(index));
		expect(turns).toEqual([0, 1, 2, 3, 4]);
		expect(loop.items.map((item) => item.state)).toEqual([
			'done',
			'done',
			'failed',
			'done',
			'prepared',
		]);
		expect(sent.map((entry) => entry.index)).toEqual([1, 2]);
		expect(loop.firstFailure).toBe(2);
	});
});

describe('when something throws out of the run loop', () => {
	const twelve = { script: (index: number) => (index === 5 ? 502 : 201) };

	test('no new request starts, and the error comes out once every request in flight has ended, each one kept', async () => {
		let sentWhenThrown = -1;
		const { error, sent, states, loop } = await run(12, {
			script: (index) => (index === 5 ? { status: 429, retryAfter: '1' } : 201),
			ports: (sentSoFar) => ({
				log: () => {
					sentWhenThrown = sentSoFar.length;
					throw new Error('the log could not be written');
				},
			}),
		});
		expect(error).toEqual(new Error('the log could not be written'));
		expect(states).not.toContain('inFlight');
		expect(sent.length).toBe(sentWhenThrown);
		expect(sent.length).toBeLessThan(12);
		expect(states.filter((state) => state === 'done')).toHaveLength(sent.length - 1);
		// Item 5 was pushed back, so the service did not act: it waits to be sent again.
		expect(loop.items[5]).toMatchObject({ state: 'waiting', sends: 1 });
	});

	test('a request whose end was lost in the throw is kept as one the service may have acted on', async () => {
		const random = () => {
			throw new Error('no randomness');
		};
		const { error, loop, states } = await run(12, { ...twelve, ports: () => ({ random }) });
		expect(error).toEqual(new Error('no randomness'));
		const item = loop.items[5];
		if (item.state !== 'failed') throw new Error(`item 5 is ${item.state}`);
		expect(item.failure).toMatchObject({ kind: 'broken', sends: 1 });
		expect(failureFacts(item.failure)).toMatchObject({ timesSent: 1, outcome: 'mayHaveActed' });
		expect(states).not.toContain('inFlight');
	});
});
