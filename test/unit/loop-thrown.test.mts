// Issue 43: when something throws out of the run loop, no new request
// starts, the requests in flight end first, and each send is there for the
// record to keep: n8n may run the node again after the error. On a virtual
// clock (test/harness/virtual-clock.mts), against a scripted service whose
// answers take time.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { LoopPorts } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import type { HttpAnswer } from '../../nodes/OutreachSequences/transport/failure.ts';
import { failureFacts } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';
import { SETTINGS, states } from './loop-helpers.mts';

const LATENCY_MS = 20;

/** Twelve creates; item 5 is answered `answer` once, every other 201; `ports` change the run's ports. */
function twelve(answer: HttpAnswer, ports: (sent: string[]) => Partial<LoopPorts>) {
	const clock = new VirtualClock();
	const sent: string[] = [];
	const loop = new RunLoop(12, SETTINGS, {
		pace: new ServicePace(32, () => clock.now),
		prepare: (index): OutreachRequest => ({
			method: 'POST',
			path: `/v1/items/${index}`,
			subject: { noun: 'item', id: String(index), verb: 'archive', done: 'archived' },
		}),
		async send(request) {
			const first = !sent.includes(request.path);
			sent.push(request.path);
			await clock.sleep(LATENCY_MS);
			const failing = request.path === '/v1/items/5' && first;
			return attemptOf(
				failing ? answer : { statusCode: 201, headers: {}, body: { path: request.path } },
				clock.now,
				request.method,
			);
		},
		cancelled: () => false,
		log: () => undefined,
		now: () => clock.now,
		sleep: clock.sleep,
		random: () => 0.5,
		...ports(sent),
	});
	return { loop, sent, running: clock.run(loop.run()) };
}

test('a port that throws: no new request starts, and the error comes out once every request in flight has ended', async () => {
	let sentWhenThrown = -1;
	const limited = { statusCode: 429, headers: { 'retry-after': '1' }, body: {} };
	const { loop, sent, running } = twelve(limited, (sentSoFar) => ({
		log: () => {
			sentWhenThrown = sentSoFar.length;
			throw new Error('the log could not be written');
		},
	}));
	await expect(running).rejects.toThrow('the log could not be written');
	// Some were still out when it threw; each ended, and is done, before the error came out.
	expect(states(loop.items)).not.toContain('inFlight');
	expect(sent.length).toBe(sentWhenThrown);
	expect(sent.length).toBeLessThan(12);
	const done = loop.items.filter((item) => item.state === 'done');
	expect(done.length).toBe(sent.length - 1);
	// Item 5 was pushed back, so the service did not act: it waits to be sent again.
	expect(loop.items[5]).toMatchObject({ state: 'waiting', sends: 1 });
});

test('a request whose end was lost in the throw is kept as one the service may have acted on', async () => {
	const { loop, running } = twelve({ statusCode: 502, headers: {}, body: {} }, () => ({
		random: () => {
			throw new Error('no randomness');
		},
	}));
	await expect(running).rejects.toThrow('no randomness');
	const item = loop.items[5];
	if (item.state !== 'failed') throw new Error(`item 5 is ${item.state}`);
	expect(item.failure).toMatchObject({
		kind: 'broken',
		sends: 1,
		error:
			'The request to archive item "5" went out as the node failed, and its answer was lost, so the outreach service may have carried it out.',
	});
	expect(failureFacts(item.failure)).toMatchObject({ timesSent: 1, outcome: 'mayHaveActed' });
	expect(states(loop.items)).not.toContain('inFlight');
});
