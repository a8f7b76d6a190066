// The run loop's report, which the execution hints are written from: push-backs,
// waits, items sent again, and why others were not. The scripted service on a
// virtual clock of loop.test.mts (loop-helpers.mts).
import { limited, run, status } from './loop-helpers.mts';

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
