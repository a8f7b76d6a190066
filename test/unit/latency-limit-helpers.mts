// The test bench of latency-limit.test.mts: N items sent through the latency
// limit (run/pace/latencyLimit.ts) against a simulated service, on a clock of
// its own, so that every count is exact and repeatable. The node is one CPU
// that spends `cpuMs` per item (60% to send, 40% to read the answer), one
// task at a time, as n8n's event loop does; the service answers after
// `latencyMs`, or works on `concurrency` requests at once for `serviceMs`
// each, the others waiting in line.
import { LatencyLimit } from '../../nodes/OutreachSequences/run/pace/latencyLimit.ts';
import type { Sent } from '../../nodes/OutreachSequences/run/pace/latencyLimit.ts';

export interface Service {
	latencyMs?: number;
	concurrency?: number;
	serviceMs?: number;
	/** From this time on, the service takes `factor` times as long, or works on `concurrency` at once. */
	change?: { atMs: number; factor?: number; concurrency?: number };
	/** Each answer takes up to this share longer, at random (a fixed seed: the same each run). */
	jitter?: number;
}

export interface Outcome {
	seconds: number;
	maxInFlight: number;
	/** The p95 of the time requests waited in line at the service, in ms. */
	lineP95Ms: number;
	/** The limit after each answer, with the time. */
	limits: Array<{ at: number; limit: number }>;
	limit: LatencyLimit;
}

/** A min-heap of timed events. */
class Events {
	private heap: Array<{ at: number; seq: number; run: () => void }> = [];
	private seq = 0;
	now = 0;

	at(time: number, run: () => void): void {
		this.heap.push({ at: time, seq: this.seq++, run });
		this.heap.sort((a, b) => a.at - b.at || a.seq - b.seq);
	}

	next(): boolean {
		const event = this.heap.shift();
		if (!event) return false;
		this.now = Math.max(this.now, event.at);
		event.run();
		return true;
	}
}

export function simulate(
	items: number,
	service: Service,
	{
		cpuMs = 1,
		ceiling = 512,
		stallMs = 0,
	}: { cpuMs?: number; ceiling?: number; stallMs?: number } = {},
): Outcome {
	let seed = 7;
	const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
	const jitter = () => 1 + (service.jitter ?? 0) * random();
	// n8n's own pauses (garbage collection, its database): the CPU stalls `stallMs` every 250 ms.
	let nextStall = 250;
	const events = new Events();
	const limit = new LatencyLimit(ceiling, () => events.now);
	const answers: Sent[] = [];
	const waits: number[] = [];
	const limits: Array<{ at: number; limit: number }> = [];
	let [pending, inFlight, maxInFlight, busy, cpuBusy] = [items, 0, 0, 0, false];
	const line: Array<() => void> = [];
	const changed = (now: number): { factor?: number; concurrency?: number } =>
		service.change && now >= service.change.atMs ? service.change : {};
	const slower = (now: number) => changed(now).factor ?? 1;
	const serve = (sent: Sent, arrived: number) => {
		const work = () => {
			waits.push(events.now - arrived);
			events.at(events.now + (service.serviceMs ?? 0) * slower(events.now) * jitter(), () => {
				busy--;
				if (busy < (changed(events.now).concurrency ?? service.concurrency ?? 0)) line.shift()?.();
				answer(sent);
			});
			busy++;
		};
		if (busy < (changed(events.now).concurrency ?? service.concurrency ?? 0)) work();
		else line.push(work);
	};
	const answer = (sent: Sent) => {
		answers.push(sent);
		cpu();
	};
	const arrive = (sent: Sent) => {
		if (service.concurrency) serve(sent, events.now);
		else
			events.at(events.now + (service.latencyMs ?? 0) * slower(events.now) * jitter(), () =>
				answer(sent),
			);
	};
	// The CPU: an answer waiting is read first; then the next item goes, if the limit allows.
	const cpu = () => {
		if (cpuBusy) return;
		if (stallMs > 0 && events.now >= nextStall) {
			nextStall += 250;
			cpuBusy = true;
			events.at(events.now + stallMs, () => {
				cpuBusy = false;
				cpu();
			});
			return;
		}
		const sent = answers.shift();
		if (sent) {
			cpuBusy = true;
			events.at(events.now + cpuMs * 0.4, () => {
				cpuBusy = false;
				inFlight--;
				limit.ended(sent, true);
				limits.push({ at: events.now, limit: limit.limit });
				cpu();
			});
			return;
		}
		if (pending === 0 || !limit.allows(inFlight)) return;
		pending--;
		const sent2 = limit.started(inFlight);
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		cpuBusy = true;
		events.at(events.now + cpuMs * 0.6, () => {
			cpuBusy = false;
			arrive(sent2);
			cpu();
		});
	};
	cpu();
	while (events.next());
	if (pending > 0 || inFlight > 0)
		throw new Error(`stuck with ${pending} to send, ${inFlight} in flight`);
	waits.sort((a, b) => a - b);
	return {
		seconds: events.now / 1000,
		maxInFlight,
		lineP95Ms: waits.length ? waits[Math.floor(waits.length * 0.95)] : 0,
		limits,
		limit,
	};
}
