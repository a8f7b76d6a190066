// The test bench of the run loop's tests: N items (item i at /v1/items/i, a GET
// when read-only, else a POST) through the run loop and a shared pace, as
// execute.ts runs them (pace.join with the run's Batching), against a scripted
// service whose answers take time on the virtual clock.
import type { LoopPorts, LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import type { Prior } from '../../nodes/OutreachSequences/run/loop/items.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import type { NetworkFaultKind } from '../../nodes/OutreachSequences/transport/failure.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import { Workers } from '../../sandbox/capacity.mts';
import { VirtualClock } from '../harness/virtual-clock.mts';

/** Each answer takes LATENCY_MS (or its own afterMs); a timeout takes TIMEOUT_MS and gets no answer. */
export const LATENCY_MS = 20;
export const TIMEOUT_MS = 1000;

export type Scripted =
	| number
	| NetworkFaultKind
	| { status: number; retryAfter?: string; headers?: Record<string, string>; afterMs?: number };

export const SETTINGS: LoopSettings = {
	batching: { groupSize: 32, pauseMs: 0, fixed: false },
	policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
	readOnly: false,
	stopAtFirstFailure: false,
};

/** Batching as batchingOf gives it: Items per Batch, Limit Automatic or Fixed, an interval. */
export const batching = (groupSize: number, fixed = false, pauseMs = 0) => ({
	batching: { groupSize, pauseMs, fixed },
});

export interface RunOptions {
	/** Item `index`'s answer at its send `sends` (0 first), the service's request `request`; else 200. */
	script?: (index: number, sends: number, request: number) => Scripted;
	settings?: Partial<LoopSettings>;
	latencyMs?: number;
	/** The service works on this many at once, each for latencyMs; the rest wait in line. */
	concurrency?: number;
	invalid?: number[];
	prior?: Record<number, Prior>;
	claim?: (index: number) => Promise<Prior | undefined>;
	cancelAfter?: number;
	pace?: ServicePace;
	clock?: VirtualClock;
	/** Ports in place of the bench's, given what was sent so far. */
	ports?: (sent: unknown[]) => Partial<LoopPorts>;
}

export async function run(count: number, options: RunOptions = {}) {
	const clock = options.clock ?? new VirtualClock();
	const settings = { ...SETTINGS, ...options.settings };
	const pace = options.pace ?? new ServicePace(settings.batching.groupSize, () => clock.now);
	const latencyMs = options.latencyMs ?? LATENCY_MS;
	const workers =
		options.concurrency &&
		new Workers({ concurrency: options.concurrency, serviceMs: latencyMs }, clock);
	/** Each request: its item, when it started and how many were under way then, its own included. */
	const sent: Array<{ index: number; at: number; inFlight: number }> = [];
	const logs: string[] = [];
	let inFlight = 0;
	const loop = new RunLoop(count, settings, {
		pace,
		prepare(index) {
			if (options.invalid?.includes(index)) throw new Error(`item ${index} is invalid`);
			const subject = { noun: 'item', id: String(index), verb: 'archive', done: 'archived' };
			return { method: settings.readOnly ? 'GET' : 'POST', path: `/v1/items/${index}`, subject };
		},
		prior: options.prior && ((index) => options.prior?.[index]),
		claim: options.claim,
		async send(request, index) {
			const sends = sent.filter((entry) => entry.index === index).length;
			sent.push({ index, at: clock.now, inFlight: ++inFlight });
			const answer = options.script?.(index, sends, sent.length - 1) ?? 200;
			const own = typeof answer === 'object' ? answer.afterMs : undefined;
			if (answer === 'timeout') await clock.sleep(TIMEOUT_MS);
			else if (workers && own === undefined) await workers.work();
			else await clock.sleep(own ?? latencyMs);
			inFlight--;
			if (typeof answer === 'string')
				return { ok: false, failure: { kind: 'network', fault: answer } };
			const { status, retryAfter, headers } =
				typeof answer === 'number' ? { status: answer } : answer;
			return attemptOf(
				{
					statusCode: status,
					headers: { ...headers, ...(retryAfter && { 'retry-after': retryAfter }) },
					body: status < 300 ? { path: request.path } : { message: `HTTP ${status}` },
				},
				clock.now,
				request.method,
			);
		},
		cancelled: () => options.cancelAfter !== undefined && sent.length >= options.cancelAfter,
		log: (line) => logs.push(line),
		now: () => clock.now,
		sleep: clock.sleep,
		random: () => 0.5,
		...options.ports?.(sent),
	});
	const startedAt = clock.now;
	pace.join(settings.batching.groupSize, settings.batching.fixed);
	const error = await clock.run(loop.run()).then(
		() => undefined,
		(thrown: unknown) => thrown as Error,
	);
	pace.leave();
	return {
		loop,
		states: loop.items.map((item) => item.state),
		sent,
		sendsOf: (index: number) => sent.filter((entry) => entry.index === index).length,
		logs,
		pace,
		clock,
		error,
		ms: clock.now - startedAt,
		summary: loop.report.summarize(loop.items.map(() => undefined)),
	};
}

/** Item `index` meets `first` on its first send; every other answer is 200. */
export const firstOf =
	(index: number, first: Scripted) =>
	(item: number, sends: number): Scripted =>
		item === index && sends === 0 ? first : 200;

/** A pace warmed up by 20 creates, so that halving its requests in flight shows. */
export async function warmPace() {
	const clock = new VirtualClock();
	const pace = new ServicePace(32, () => clock.now);
	await run(20, { pace, clock });
	return { clock, pace, before: pace.pacer.inFlightLimit };
}
