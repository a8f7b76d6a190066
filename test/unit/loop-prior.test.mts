// The run loop with what an earlier try or execution did (run/memory/reRun.ts):
// an item with a prior answer or failure is not sent. The scripted service on a
// virtual clock of loop.test.mts (loop-helpers.mts).
import { run, status } from './loop-helpers.mts';

/** On Error = Stop, one item at a time. */
const STOP_ONE_BY_ONE = {
	stopAtFirstFailure: true,
	batching: { groupSize: 1, pauseMs: 0, batched: false, fixed: false },
};

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
					failure: {
						kind: 'unknownBefore',
						request,
						earlier: { message: '', description: '', statusCode: null, networkError: null },
						itemIndex: 0,
					},
					event: 'failedAgain',
				},
			},
		});
		expect(service.sent).toEqual(['/v1/items/1']);
		expect(loop.items[0]).toMatchObject({ state: 'failed', failure: { kind: 'unknownBefore' } });
	});

	test('under On Error = Stop, items answered before never stop the run; one failed before does', async () => {
		const { loop, service } = await run(3, {
			prior: { 0: { kind: 'answer', json: { id: 'a' }, event: 'answered' } },
			script: { '/v1/items/2': [status(400)] },
			settings: STOP_ONE_BY_ONE,
		});
		expect(service.sent).toEqual(['/v1/items/1', '/v1/items/2']);
		expect(loop.firstFailure).toBe(2);
	});

	test('after a stop, settle looks up the items not reached, never sends them, and gives a turn after each', async () => {
		const { loop, service } = await run(5, {
			prior: { 3: { kind: 'answer', json: { id: 'earlier' }, event: 'answered' } },
			script: { '/v1/items/1': [status(400)] },
			settings: STOP_ONE_BY_ONE,
		});
		expect(loop.items.map((item) => item.state)).toEqual([
			'done',
			'failed',
			'pending',
			'pending',
			'pending',
		]);
		const turns: number[] = [];
		await loop.settle((index) => {
			turns.push(index);
			return undefined;
		});
		expect(turns).toEqual([0, 1, 2, 3, 4]);
		// Item 3's earlier answer counts; 2 and 4 are prepared, never sent; the stop stays at 1.
		expect(loop.items.map((item) => item.state)).toEqual([
			'done',
			'failed',
			'prepared',
			'done',
			'prepared',
		]);
		expect(service.sent).toEqual(['/v1/items/0', '/v1/items/1']);
		expect(loop.firstFailure).toBe(1);
	});
});
