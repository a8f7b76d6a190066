// The sandbox's capacity: a service that works on `concurrency` requests at
// once, `serviceMs` each, and keeps the others in line, first come first
// served. The contract shows no such limit; this is the sandbox's own, for
// measuring how the node does against a busy service.

export interface Capacity {
	concurrency: number;
	serviceMs: number;
}

/** The time the workers keep: real by default, a test's virtual clock otherwise. */
export interface WorkClock {
	sleep(ms: number): Promise<void>;
}

const realTime: WorkClock = { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** A service's workers: a request takes one or waits in line for one, is worked on, and leaves it to the next. */
export class Workers {
	readonly capacity: Capacity;
	private readonly clock: WorkClock;
	private busy = 0;
	private readonly line: Array<() => void> = [];

	constructor(capacity: Capacity, clock: WorkClock = realTime) {
		if (!(capacity.concurrency >= 1) || !(capacity.serviceMs >= 0))
			throw new Error('A capacity needs a concurrency of at least 1 and a serviceMs of 0 or more');
		this.capacity = capacity;
		this.clock = clock;
	}

	/** Waits for a worker, then for the request's service time. */
	async work(): Promise<void> {
		if (this.busy < this.capacity.concurrency) this.busy++;
		// The worker that frees up hands itself over: busy stays as it is.
		else await new Promise<void>((take) => this.line.push(take));
		await this.clock.sleep(this.capacity.serviceMs);
		const next = this.line.shift();
		if (next) next();
		else this.busy--;
	}
}
