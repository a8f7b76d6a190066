// A virtual clock for the run side's unit tests: sleep() waits on a timer
// queue, and run() lets every promise settle, then moves time to the next
// timer, until the work is done. Concurrent waits overlap as they would in
// real time, and a run of minutes takes milliseconds, exactly the same each
// time.
export class VirtualClock {
	now = 0;
	private timers: Array<{ at: number; order: number; wake: () => void }> = [];
	private order = 0;

	readonly sleep = (ms: number): Promise<void> =>
		new Promise<void>((wake) => {
			this.timers.push({ at: this.now + Math.max(0, ms), order: this.order++, wake });
		});

	/** Runs `work` to its end on this clock; fails when it waits for nothing. */
	async run<T>(work: Promise<T>): Promise<T> {
		let settled = false;
		const done = work.finally(() => {
			settled = true;
		});
		done.catch(() => undefined);
		for (;;) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (settled) return await done;
			if (this.timers.length === 0)
				throw new Error(`Stuck at ${this.now} ms: the work waits, and no timer is set`);
			this.timers.sort((a, b) => a.at - b.at || a.order - b.order);
			const next = this.timers.shift()!;
			this.now = Math.max(this.now, next.at);
			next.wake();
		}
	}
}
