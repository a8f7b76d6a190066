/**
 * Sends a group of items as fast as the pacer allows. A worker takes an
 * item, waits its turn at the gate, sends it, and puts it back at the front
 * of the queue when it is to be sent again. One worker at a time waits at
 * the gate, so that a pause or a paced rate wakes one waiter, not all.
 */
import type { Epoch, RequestPacer } from './pacer';

/** A long wait is slept in steps this long, so that a stopped execution ends soon. */
const WAIT_STEP_MS = 500;

export class Dispatcher {
	private inFlight = 0;
	private gate: Promise<unknown> = Promise.resolve();
	private completions: Array<() => void> = [];

	constructor(
		private readonly pacer: RequestPacer,
		/** Whether the item at this index is no longer to be sent. */
		private readonly isStopped: (index: number) => boolean,
		private readonly sleep: (ms: number) => Promise<void>,
	) {}

	/**
	 * Runs `send` for every index that `prepare` accepts (an item it refuses
	 * never reaches the gate), with at most `workers` in flight; `send`
	 * answers true to have the item sent again.
	 */
	async run(
		indices: number[],
		workers: number,
		prepare: (index: number) => boolean,
		send: (index: number, ticket: Epoch, remaining: () => number) => Promise<boolean>,
	): Promise<void> {
		const queue = [...indices];
		const remaining = () => queue.length + this.inFlight;
		const worker = async () => {
			for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
				if (this.isStopped(index) || !prepare(index)) continue;
				const ticket = await this.turn(index);
				if (!ticket) continue;
				this.inFlight++;
				let again = false;
				try {
					again = await send(index, ticket, remaining);
				} finally {
					this.inFlight--;
					for (const wake of this.completions.splice(0)) wake();
				}
				if (again) queue.unshift(index);
			}
		};
		await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, worker));
	}

	/** Waits until the pacer lets one more request start; undefined once the item is not to be sent. */
	private turn(index: number): Promise<Epoch | undefined> {
		const turn = this.gate.then(async () => {
			for (;;) {
				if (this.isStopped(index)) return undefined;
				const wait = this.pacer.readyIn(this.inFlight);
				if (wait === 0) return this.pacer.start();
				if (wait === Infinity) await new Promise<void>((wake) => this.completions.push(wake));
				else await this.sleep(Math.min(wait, WAIT_STEP_MS));
			}
		});
		this.gate = turn.catch(() => undefined);
		return turn;
	}
}
