// The test bench of the passing-faults tests: a scripted service whose answers
// take time on a virtual clock (test/harness/virtual-clock.mts), and a run of
// N gets (or creates, with readOnly false) through the run loop.
import type { OutreachRequest } from '../../nodes/OutreachSequences/helpers/interfaces.ts';
import type { NetworkFaultKind } from '../../nodes/OutreachSequences/transport/failure.ts';
import type { ItemState, LoopSettings } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { RunLoop } from '../../nodes/OutreachSequences/run/loop/loop.ts';
import { ServicePace } from '../../nodes/OutreachSequences/run/pace/servicePace.ts';
import type { Attempt } from '../../nodes/OutreachSequences/transport/index.ts';
import { attemptOf } from '../../nodes/OutreachSequences/transport/index.ts';
import { VirtualClock } from '../harness/virtual-clock.mts';

/** Each answer takes LATENCY_MS; a timeout takes TIMEOUT_MS and gets no answer. */
export const LATENCY_MS = 20;
export const TIMEOUT_MS = 1000;

export type Scripted = number | NetworkFaultKind | { status: number; retryAfter?: string };

/** A service that answers each item's path with the next of its scripted answers, then with 200 (or `otherwise`). */
function service(clock: VirtualClock, script: (path: string, sends: number) => Scripted) {
	const sent: Array<{ path: string; at: number }> = [];
	return {
		sent,
		sendsOf: (index: number) => sent.filter((entry) => entry.path === `/v1/items/${index}`).length,
		async send(request: OutreachRequest): Promise<Attempt> {
			const sends = sent.filter((entry) => entry.path === request.path).length;
			sent.push({ path: request.path, at: clock.now });
			const answer = script(request.path, sends);
			if (typeof answer === 'string') {
				await clock.sleep(answer === 'timeout' ? TIMEOUT_MS : LATENCY_MS);
				return { ok: false, failure: { kind: 'network', fault: answer } };
			}
			await clock.sleep(LATENCY_MS);
			const status = typeof answer === 'number' ? answer : answer.status;
			const headers =
				typeof answer === 'object' && answer.retryAfter ? { 'retry-after': answer.retryAfter } : {};
			return attemptOf(
				{
					statusCode: status,
					headers,
					body: status < 300 ? { path: request.path } : { message: `HTTP ${status}` },
				},
				clock.now,
				request.method,
			);
		},
	};
}

const SETTINGS: LoopSettings = {
	batching: { groupSize: 32, pauseMs: 0, batched: false, fixed: false },
	policy: { enabled: true, maxRetries: 10, maxWaitMs: 60_000 },
	readOnly: true,
	stopAtFirstFailure: false,
};

export async function run(
	count: number,
	script: (path: string, sends: number) => Scripted,
	settings: Partial<LoopSettings> = {},
	pace?: ServicePace,
	clock = new VirtualClock(),
) {
	const scripted = service(clock, script);
	const shared = pace ?? new ServicePace(32, () => clock.now);
	const logs: string[] = [];
	const loopSettings = { ...SETTINGS, ...settings };
	const loop = new RunLoop(count, loopSettings, {
		pace: shared,
		prepare: (index) => ({
			// A get reads; anything else is a create or an archive, a POST.
			method: loopSettings.readOnly ? 'GET' : 'POST',
			path: `/v1/items/${index}`,
			subject: { noun: 'item', id: String(index), verb: 'get', done: 'fetched' },
		}),
		send: (request) => scripted.send(request),
		cancelled: () => false,
		log: (line) => logs.push(line),
		now: () => clock.now,
		sleep: clock.sleep,
		random: () => 0.5,
	});
	await clock.run(loop.run());
	return { loop, service: scripted, pace: shared, logs, seconds: clock.now / 1000 };
}

export const states = (items: ItemState[]) => items.map((item) => item.state);
export const ok = () => 200;
