// On Error = Stop, with several requests on their way at once: what the
// service sees after it answered the failing one. No request starts once the
// node has that answer; those already sent still arrive and may be carried
// out after it (docs/errors.md, What On Error does). Without n8n, on a
// virtual clock, with a pace that has learned to send four at once.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { Attempt } from '../../nodes/OutreachSequences/transport/index.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import type { LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { SETTINGS, states } from './loop-helpers.mts';

const settings: LoopSettings = {
	...SETTINGS,
	stopAtFirstFailure: true,
	batching: { groupSize: 4, pauseMs: 0, batched: false, fixed: false },
};
const clock = { now: 0 };

function loopOf(
	count: number,
	pace: ServicePace,
	send: (request: OutreachRequest) => Promise<Attempt>,
) {
	return new RunLoop(count, settings, {
		pace,
		prepare: (index) => ({
			method: 'POST',
			path: `/v1/items/${index}`,
			subject: { noun: 'item', id: String(index), verb: 'archive', done: 'archived' },
		}),
		send,
		cancelled: () => false,
		log: () => undefined,
		now: () => clock.now,
		sleep: async (ms) => void (clock.now += ms),
		random: () => 0.5,
	});
}

const answer = (statusCode: number, request: OutreachRequest) =>
	attemptOf({ statusCode, headers: {}, body: { path: request.path } }, clock.now, 'POST');

test('items sent with the one that fails are still answered and done after it; none starts once its failure is in', async () => {
	const pace = new ServicePace(4, () => clock.now);
	// A first run teaches the pace to send four at once, as a run after others does.
	await loopOf(40, pace, async (request) => answer(200, request)).run();
	const events: string[] = [];
	const waiting = new Map<string, (attempt: Attempt) => void>();
	const run = loopOf(8, pace, (request) => {
		events.push(`sent ${request.path}`);
		return new Promise((resolve) => waiting.set(request.path, resolve));
	}).run();
	const settle = async (path: string, statusCode: number) => {
		while (!waiting.has(path)) await new Promise((resolve) => setImmediate(resolve));
		events.push(`answered ${path} ${statusCode}`);
		waiting.get(path)?.(answer(statusCode, { method: 'POST', path } as OutreachRequest));
		await new Promise((resolve) => setImmediate(resolve));
	};
	// Item 2 fails first (the service may have carried out a 500 to a POST): the run stops at it.
	await settle('/v1/items/2', 500);
	for (const other of [0, 1, 3]) await settle(`/v1/items/${other}`, 200);
	await run;
	expect(events).toEqual([
		'sent /v1/items/0',
		'sent /v1/items/1',
		'sent /v1/items/2',
		'sent /v1/items/3',
		'answered /v1/items/2 500',
		'answered /v1/items/0 200',
		'answered /v1/items/1 200',
		'answered /v1/items/3 200',
	]);
});

test('the same, item by item: what each ended as, and that the stop is at the failed one', async () => {
	const pace = new ServicePace(4, () => clock.now);
	await loopOf(40, pace, async (request) => answer(200, request)).run();
	let failedAnswered = false;
	let answerOthers: () => void = () => undefined;
	const othersGo = new Promise<void>((resolve) => (answerOthers = resolve));
	const startedAfter: string[] = [];
	const loop = loopOf(8, pace, async (request) => {
		if (failedAnswered) startedAfter.push(request.path);
		await new Promise((resolve) => setImmediate(resolve));
		if (request.path === '/v1/items/2') {
			failedAnswered = true;
			const failed = answer(500, request);
			setImmediate(answerOthers);
			return failed;
		}
		// The others are answered only once item 2's answer is in: they are still on their way then.
		await othersGo;
		return answer(200, request);
	});
	await loop.run();
	expect(loop.firstFailure).toBe(2);
	expect(startedAfter).toEqual([]);
	expect(states(loop.items)).toEqual([
		'done',
		'done',
		'failed',
		'done',
		'pending',
		'pending',
		'pending',
		'pending',
	]);
});
