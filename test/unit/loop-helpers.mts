// The test bench of the run loop's tests (loop*.test.mts): a scripted service
// that answers each request, on a virtual clock, and a run of N items.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { ItemState, LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import type { Prior } from '../../nodes/OutreachSequences/run/loop/items.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import type { HttpAnswer } from '../../nodes/OutreachSequences/transport/failure.ts';
import type { Attempt } from '../../nodes/OutreachSequences/transport/index.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';

type Answer = HttpAnswer | 'reset';

/** A service that answers each path with the next of its scripted answers, then with 200. */
export function scriptedService(script: Record<string, Answer[]> = {}) {
	const sent: string[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	return {
		sent,
		maxInFlight: () => maxInFlight,
		async send(request: OutreachRequest, clock: { now: number }): Promise<Attempt> {
			sent.push(request.path);
			inFlight++;
			maxInFlight = Math.max(maxInFlight, inFlight);
			await Promise.resolve();
			inFlight--;
			const answer = script[request.path]?.shift() ?? {
				statusCode: 200,
				headers: {},
				body: { path: request.path },
			};
			if (answer === 'reset')
				return { ok: false, failure: { kind: 'network', fault: 'reset', code: 'ECONNRESET' } };
			return attemptOf(answer, clock.now, request.method);
		},
	};
}

export const limited = (retryAfter?: string): HttpAnswer => ({
	statusCode: 429,
	headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
	body: {},
});
export const status = (statusCode: number): HttpAnswer => ({
	statusCode,
	headers: {},
	body: { message: `HTTP ${statusCode}` },
});

export const SETTINGS: LoopSettings = {
	batching: { groupSize: 32, pauseMs: 0, batched: false, fixed: false },
	policy: { enabled: true, maxRetries: 3, maxWaitMs: 60_000 },
	readOnly: false,
	stopAtFirstFailure: false,
};

/** Runs `count` items, item i at /v1/items/i (an item whose path is in `invalid` can't be prepared). */
export async function run(
	count: number,
	options: {
		script?: Record<string, Answer[]>;
		settings?: Partial<LoopSettings>;
		invalid?: number[];
		cancelAfter?: number;
		prior?: Record<number, Prior>;
		claim?: (index: number) => Promise<Prior | undefined>;
	} = {},
) {
	const clock = { now: 0 };
	const service = scriptedService(options.script);
	const logs: string[] = [];
	const settings = { ...SETTINGS, ...options.settings };
	const loop = new RunLoop(count, settings, {
		pace: new ServicePace(settings.batching.groupSize, () => clock.now),
		prepare(index) {
			if (options.invalid?.includes(index)) throw new Error(`item ${index} is invalid`);
			return {
				method: 'POST',
				path: `/v1/items/${index}`,
				subject: { noun: 'item', id: String(index), verb: 'archive', done: 'archived' },
			};
		},
		prior: options.prior ? (index) => options.prior?.[index] : undefined,
		claim: options.claim,
		send: (request) => service.send(request, clock),
		cancelled: () =>
			options.cancelAfter !== undefined && service.sent.length >= options.cancelAfter,
		log: (line) => logs.push(line),
		now: () => clock.now,
		sleep: async (ms) => {
			clock.now += ms;
		},
		random: () => 0.5,
	});
	await loop.run();
	return { loop, service, logs, clock };
}

export const states = (items: ItemState[]) => items.map((item) => item.state);
