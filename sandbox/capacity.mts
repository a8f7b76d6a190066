// The sandbox's capacity: a service that works on `concurrency` requests at
// once, `serviceMs` each; the others wait in line, first come first served,
// and how long each waited is recorded (RecordedRequest.lineMs). The contract
// shows no such limit; this is the sandbox's own, for measuring how many
// requests a client keeps in flight against a busy service.

export interface Capacity {
	concurrency: number;
	serviceMs: number;
}

/** The time the workers keep: real by default, a test's virtual clock otherwise. */
export interface WorkClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const realTime: WorkClock = {
	now: () => performance.now(),
	sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A service's workers: a request takes one or waits in line for one, is worked on, and leaves it to the next. */
export class Workers {
	readonly capacity: Capacity;
	private readonly clock: WorkClock;
	private busy = 0;
	private readonly line: Array<() => void> = [];

	constructor(capacity: Capacity, clock: WorkClock = realTime) {
		this.clock = clock;
		if (!(capacity.concurrency >= 1) || !(capacity.serviceMs >= 0))
			throw new Error('A capacity needs a concurrency of at least 1 and a serviceMs of 0 or more');
		this.capacity = {
			concurrency: Math.floor(capacity.concurrency),
			serviceMs: capacity.serviceMs,
		};
	}

	/** Requests waiting in line now. */
	get waiting(): number {
		return this.line.length;
	}

	/** Waits for a worker, then for the request's service time; resolves with how long it waited in line, in ms. */
	async work(): Promise<number> {
		const arrived = this.clock.now();
		if (this.busy < this.capacity.concurrency) this.busy++;
		// The worker that frees up hands itself over: busy stays as it is.
		else await new Promise<void>((take) => this.line.push(take));
		const lineMs = this.clock.now() - arrived;
		await this.clock.sleep(this.capacity.serviceMs);
		const next = this.line.shift();
		if (next) next();
		else this.busy--;
		return lineMs;
	}
}

/** The p50, p95 and the longest of the times in line, in ms, over the requests that went through the workers. */
export function lineSummary(lineMs: number[]): { p50: number; p95: number; max: number } | null {
	if (lineMs.length === 0) return null;
	const sorted = [...lineMs].sort((a, b) => a - b);
	const at = (share: number) =>
		sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
	const round = (ms: number) => Math.round(ms * 10) / 10;
	return { p50: round(at(0.5)), p95: round(at(0.95)), max: round(sorted[sorted.length - 1]) };
}
