// The test bench of the Batching › Limit tests: archives through the run loop
// and a shared pace, as execute.ts runs them (pace.join with the execution's
// Batching), on a virtual clock, against a service that answers every request
// after the same delay (far away), or works on C at once (busy:
// sandbox/capacity.mts), and may push back once.
import type { Batching } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import { Workers } from '../../sandbox/capacity.mts';
import { VirtualClock } from '../harness/virtual-clock.mts';

export interface Service {
	/** Every answer after this long; with `concurrency`, each one's service time, the rest waiting in line. */
	latencyMs: number;
	concurrency?: number;
	/** The request (by its place in order) answered with this status and Retry-After: 1. */
	pushBack?: { request: number; status: 429 | 503 };
}

/** Batching as batchingOf gives it: Items per Batch, Automatic or Fixed, no interval. */
export const batching = (groupSize: number, fixed = false): Batching => ({
	groupSize,
	pauseMs: 0,
	batched: false,
	fixed,
});

export const DEFAULT = batching(32);

/** A service whose requests are recorded with when each started and how many were under way then, its own included. */
export function service(clock: VirtualClock, shape: Service) {
	const starts: Array<{ at: number; inFlight: number }> = [];
	const workers = shape.concurrency
		? new Workers({ concurrency: shape.concurrency, serviceMs: shape.latencyMs }, clock)
		: undefined;
	let inFlight = 0;
	return {
		starts,
		async send(path: string) {
			const request = starts.length;
			starts.push({ at: clock.now, inFlight: ++inFlight });
			await (workers ? workers.work() : clock.sleep(shape.latencyMs));
			inFlight--;
			const status = shape.pushBack?.request === request ? shape.pushBack.status : 200;
			const headers = status === 200 ? {} : { 'retry-after': '1' };
			return attemptOf({ statusCode: status, headers, body: { path } }, clock.now, 'POST');
		},
	};
}

/** `count` archives at `settings`, on `pace` (a new one by default) and `clock`: the loop, the service, and the run's time. */
export async function runAt(
	count: number,
	settings: Batching,
	shape: Service,
	clock = new VirtualClock(),
	pace = new ServicePace(settings.groupSize, () => clock.now),
) {
	const far = service(clock, shape);
	const startedAt = clock.now;
	const loop = new RunLoop(
		count,
		{
			batching: settings,
			policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
			readOnly: false,
			stopAtFirstFailure: false,
		},
		{
			pace,
			prepare: (index) => ({
				method: 'POST',
				path: `/v1/contacts/c-${index}/archive`,
				subject: { noun: 'contact', id: `c-${index}`, verb: 'archive', done: 'archived' },
			}),
			send: (request) => far.send(request.path),
			cancelled: () => false,
			log: () => undefined,
			now: () => clock.now,
			sleep: clock.sleep,
			random: () => 0.5,
		},
	);
	pace.join(settings.groupSize, settings.fixed);
	await clock.run(loop.run());
	pace.leave();
	const summary = loop.report.summarize(loop.items.map(() => undefined));
	return { loop, summary, service: far, pace, clock, ms: clock.now - startedAt };
}
