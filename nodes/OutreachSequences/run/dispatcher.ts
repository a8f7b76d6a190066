/**
 * Sends one execution's items as fast as the service's pace allows
 * (servicePace.ts). A worker takes an item, waits for its turn, sends it,
 * and puts it back at the front of the queue when it is to be sent again.
 * At most `workers` of this execution's requests are in flight at once.
 */
import type { Epoch } from './pacer';
import type { ServicePace } from './servicePace';

export class Dispatcher {
	/** This execution's requests in flight now. */
	private inFlight = 0;

	constructor(
		private readonly pace: ServicePace,
		/** Whether the item at this index is no longer to be sent. */
		private readonly isStopped: (index: number) => boolean,
		private readonly sleep: (ms: number) => Promise<void>,
		/** Hears how long the service's pace held a request back, when it did. */
		private readonly waited?: (ms: number) => void,
	) {}

	/**
	 * Runs `send` for every index that `prepare` accepts (an item it refuses
	 * never waits for a turn); `send` answers true to have the item sent again.
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
				const item = index;
				const ticket = await this.pace.turn(() => this.isStopped(item), this.sleep, this.waited);
				if (!ticket) continue;
				this.inFlight++;
				let again = false;
				try {
					again = await send(index, ticket, remaining);
				} finally {
					this.inFlight--;
					this.pace.finished();
				}
				if (again) queue.unshift(index);
			}
		};
		await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, worker));
	}
}
