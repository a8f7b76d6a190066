// Issue 43: a 3xx or a 503 without Retry-After to a create may come after the
// service acted, so the item is not sent again on its own; a 503 with
// Retry-After is still the service asking to wait. The run loop on a virtual
// clock (test/harness/virtual-clock.mts), against a scripted service.
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';
import type { Scripted } from './passing-faults-helpers.mts';
import { ok, run, states } from './passing-faults-helpers.mts';

const CREATE = { readOnly: false };

/** A pace warmed up by 20 creates, so that halving its requests in flight shows. */
async function warmPace() {
	const clock = new VirtualClock();
	const pace = new ServicePace(32, () => clock.now);
	await run(20, ok, CREATE, pace, clock);
	return { clock, pace, before: pace.pacer.inFlightLimit };
}

/** Item 0 meets `first` on its first send; every other answer is 200. */
const firstOf0 = (first: Scripted) => (path: string, sends: number) =>
	path === '/v1/items/0' && sends === 0 ? first : 200;

describe('a 503 without Retry-After to a create', () => {
	test('is sent once and fails mayHaveActed; the others go on', async () => {
		const { loop, service } = await run(5, firstOf0(503), CREATE);
		expect(states(loop.items)).toEqual(['failed', 'done', 'done', 'done', 'done']);
		expect(service.sendsOf(0)).toBe(1);
		const item = loop.items[0];
		if (item.state !== 'failed') throw new Error('item 0 did not fail');
		expect(item.failure).toMatchObject({ kind: 'gaveUp', reason: 'notSafe', sends: 1 });
		expect(failureFacts(item.failure)).toEqual({
			statusCode: 503,
			networkError: null,
			timesSent: 1,
			retryAfterSeconds: null,
			outcome: 'mayHaveActed',
		});
	});

	test('still slows the shared pace as every 503 does: a pause, fewer in flight, one log line', async () => {
		const { clock, pace, before } = await warmPace();
		const { loop, logs } = await run(5, firstOf0(503), CREATE, pace, clock);
		expect(states(loop.items)).toEqual(['failed', 'done', 'done', 'done', 'done']);
		expect(pace.pacer.inFlightLimit).toBeLessThan(before);
		// No new request starts for the backoff (1 s here), this execution's or another's.
		expect(pace.pacer.pausedFor()).toBeGreaterThan(0);
		expect(pace.pacer.pausedFor()).toBeLessThanOrEqual(1000);
		expect(logs).toEqual([
			expect.stringMatching(
				/^Outreach Sequences: the service pushed back \(HTTP 503\); no new request starts for 1 second/,
			),
		]);
		expect(loop.report.summarize(loop.items.map(() => undefined))).toMatchObject({
			pushBacks: 1,
			transientRetried: 0,
		});
	});

	test('a 503 to a read is sent again, as before', async () => {
		const { loop, service } = await run(5, firstOf0(503));
		expect(states(loop.items)).toEqual(Array(5).fill('done'));
		expect(service.sendsOf(0)).toBe(2);
	});
});

test('a 503 with Retry-After to a create is still a pause: the item goes again after the wait, and the pace slows', async () => {
	const { clock, pace, before } = await warmPace();
	const from = clock.now;
	const { loop, service, logs } = await run(
		5,
		firstOf0({ status: 503, retryAfter: '2' }),
		CREATE,
		pace,
		clock,
	);
	expect(states(loop.items)).toEqual(Array(5).fill('done'));
	expect(loop.items[0]).toMatchObject({ state: 'done', sends: 2 });
	expect(service.sendsOf(0)).toBe(2);
	const again = service.sent.filter((entry) => entry.path === '/v1/items/0')[1];
	expect(again.at - from).toBeGreaterThanOrEqual(2000);
	expect(pace.pacer.inFlightLimit).toBeLessThan(before);
	expect(logs).toEqual([expect.stringMatching(/\(HTTP 503, Retry-After: 2\)/)]);
});

describe('a 3xx', () => {
	test.each([301, 303, 307])(
		'HTTP %i to a create: sent once, fails mayHaveActed, and the pace is as it was',
		async (status) => {
			const { clock, pace, before } = await warmPace();
			const { loop, service, logs } = await run(5, firstOf0(status), CREATE, pace, clock);
			expect(states(loop.items)).toEqual(['failed', 'done', 'done', 'done', 'done']);
			expect(service.sendsOf(0)).toBe(1);
			const item = loop.items[0];
			if (item.state !== 'failed') throw new Error('item 0 did not fail');
			expect(failureFacts(item.failure)).toMatchObject({
				statusCode: status,
				timesSent: 1,
				outcome: 'mayHaveActed',
			});
			expect(pace.pacer.inFlightLimit).toBeGreaterThanOrEqual(before);
			expect(pace.pacer.sendRate).toBe(Infinity);
			expect(logs).toEqual([]);
		},
	);

	test('HTTP 303 to a read: not sent again, notActed, as before', async () => {
		const { loop, service } = await run(2, firstOf0(303));
		expect(service.sendsOf(0)).toBe(1);
		const item = loop.items[0];
		if (item.state !== 'failed') throw new Error('item 0 did not fail');
		expect(failureFacts(item.failure)).toMatchObject({ statusCode: 303, outcome: 'notActed' });
	});
});
