// A dead service ends the run fast: when most requests get no useful answer,
// the breaker stops sending, pauses, and sends one probe. The run loop on a
// virtual clock against the scripted service of passing-faults-helpers.mts.
import { BREAKER_PAUSE_MS } from '../../nodes/OutreachSequences/run/pace/breaker.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { run, states, TIMEOUT_MS } from './passing-faults-helpers.mts';

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
