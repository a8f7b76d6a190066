/**
 * Sends one execution's items as fast as the service's pace allows
 * (servicePace.ts). A worker takes an item, waits for its turn, sends it,
 * and hears back whether it is to be sent again: at once (the pace holds it
 * back after a push-back), or after its own backoff, while the other items
 * keep going. Items to be sent again go before new ones. While the service's
 * breaker is open (breaker.ts), an item waiting out its backoff is the probe,
 * not a new item; once the breaker trips, no item of this run is sent. At
 * most `workers` of this execution's requests are in flight at once, and a
 * new item's request is made together with the next new items' (makeAhead).
 * The run report hears how long the pace held requests back, each answer's
 * time, and how long the in-flight limit was full while items waited.
 * When a step throws, no new request starts, and the error comes out once
 * every request in flight has ended: so each one that went out is heard.
 */
import type { RunReport } from '../outcome/runReport';
import type { ServiceDown } from '../pace/breaker';
import type { RequestEnd, ServicePace, Turn } from '../pace/servicePace';
import type { LoopPorts } from './items';

/** How many items not sent go by before n8n's event loop gets a turn: 10,000 skipped items would otherwise hold it for seconds. */
const YIELD_EVERY = 32;

/** What became of one send: how the request ended, for the breaker, and whether to send the item again, after how long. */
export interface SendResult {
	end: RequestEnd;
	againAfterMs?: number;
}

export interface DispatchSteps {
	/** Makes the item's request; false when it is not to be sent (refused, or answered without a send). */
	prepare(index: number): boolean;
	/** Resolves once what is about to be sent is written down, before the item takes a turn; false: not to be sent. */
	ready(index: number): Promise<boolean>;
	send(index: number, turn: Turn, remaining: () => number): Promise<SendResult>;
	/** The service is down (its breaker tripped): the item is not sent. */
	serviceDown(index: number, down: ServiceDown): void;
}

export class Dispatcher {
	/** This execution's requests in flight now. */
	private inFlight = 0;
	/** Items never sent, in order. */
	private fresh: number[] = [];
	/** Items to be sent again now. */
	private ready: number[] = [];
	/** Items waiting out their own backoff. */
	private readonly backingOff = new Set<number>();
	/** Items to be sent again, from their failure until they go out: waiting out a backoff, ready, or waiting for a turn. */
	private readonly retrying = new Set<number>();
	private waiters: Array<() => void> = [];
	/** Set once the service's breaker tripped on this run. */
	private down: ServiceDown | undefined;
	/** How many new items' requests are made together (`workers`), and how many of those are still to go. */
	private together = 1;
	private madeAhead = 0;
	/** Items not sent in this run so far (answered from an earlier try or execution, or failed unsent). */
	private unsent = 0;
	/** While set, every worker waits for it before its next item: n8n's event loop gets a turn. */
	private pause: Promise<void> | undefined;
	/** What a step threw: the run ends once the requests in flight have. */
	private thrown: { error: unknown } | undefined;
	/** Items that wait for a turn at the pace now. */
	private asking = 0;
	/** Since when the in-flight limit has been full while items wait; undefined while it is not. */
	private fullSince: number | undefined;

	constructor(
		private readonly pace: ServicePace,
		/** Whether the item at this index is no longer to be sent. */
		private readonly isStopped: (index: number) => boolean,
		private readonly clock: Pick<LoopPorts, 'now' | 'sleep'>,
		private readonly report: RunReport,
	) {}

	/** Sends every index that `steps.prepare` accepts (an item it refuses never waits for a turn). */
	async run(indices: number[], workers: number, steps: DispatchSteps): Promise<void> {
		this.fresh = [...indices];
		this.together = Math.max(1, workers);
		this.madeAhead = 0;
		const remaining = () =>
			this.fresh.length + this.ready.length + this.backingOff.size + this.inFlight;
		const worker = async () => {
			try {
				for (let next = this.next(); next !== undefined; next = this.next()) {
					if (next === 'wait') {
						await new Promise<void>((wake) => this.waiters.push(wake));
						continue;
					}
					await this.dispatch(next.index, next.fresh, steps, remaining);
				}
			} catch (error) {
				this.thrown ??= { error };
				this.wakeAll();
			}
		};
		await Promise.all(Array.from({ length: Math.min(workers, indices.length) }, worker));
		if (this.thrown) throw this.thrown.error;
	}

	/** Whether the item is no longer to be sent: the loop says so, or a step threw. */
	private stopped(index: number): boolean {
		return this.thrown !== undefined || this.isStopped(index);
	}

	/** The next item to send: one to be sent again first; 'wait' while an item's backoff may still bring it back. */
	private next(): { index: number; fresh: boolean } | 'wait' | undefined {
		if (this.thrown) return undefined;
		const again = this.ready.shift();
		if (again !== undefined) return { index: again, fresh: false };
		// While the breaker is open, the item that waits out its backoff goes as the probe, not a new one.
		if (this.retrying.size > 0 && !this.pace.breaker.isClosed && !this.down) return 'wait';
		const fresh = this.fresh.shift();
		if (fresh !== undefined) return { index: fresh, fresh: true };
		return this.backingOff.size > 0 ? 'wait' : undefined;
	}

	private async dispatch(
		index: number,
		fresh: boolean,
		steps: DispatchSteps,
		remaining: () => number,
	): Promise<void> {
		if (this.pause) await this.pause;
		if (fresh) this.makeAhead(index, steps);
		// A turn is taken only once the item's mark is written: no turn is held while n8n's database answers.
		if (this.stopped(index) || !steps.prepare(index) || !(await steps.ready(index))) {
			this.retrying.delete(index);
			// Items answered without a send (done before) await nothing: every worker waits for one timer
			// every YIELD_EVERY of them, so that n8n's event loop turns.
			if (++this.unsent % YIELD_EVERY === 0)
				this.pause ??= this.clock.sleep(0).then(() => {
					this.pause = undefined;
				});
			return;
		}
		if (this.down) {
			this.retrying.delete(index);
			steps.serviceDown(index, this.down);
			return;
		}
		// A new item gives the probe's place to one that waits out its backoff: that one may well answer now.
		this.asking++;
		this.watchLimit();
		const turn = await this.pace.turn(
			() => this.stopped(index),
			this.clock.sleep,
			(ms) => this.report.waited(ms),
			() => !fresh || this.retrying.size === 0,
		);
		this.asking--;
		this.retrying.delete(index);
		if (!turn) return;
		if ('yielded' in turn) {
			const after = this.fresh.findIndex((other) => other > index);
			this.fresh.splice(after < 0 ? this.fresh.length : after, 0, index);
			return;
		}
		if ('down' in turn) {
			this.serviceDown(turn.down);
			steps.serviceDown(index, turn.down);
			return;
		}
		this.inFlight++;
		this.watchLimit();
		const sentAt = this.clock.now();
		let result: SendResult = { end: 'cancelled' };
		try {
			result = await steps.send(index, turn, remaining);
		} finally {
			this.inFlight--;
			if (result.end === 'answered') this.report.answered(sentAt, this.clock.now());
			this.pace.finished(turn, result.end);
			this.watchLimit();
			this.wakeAll();
		}
		if (result.againAfterMs === undefined) return;
		this.retrying.add(index);
		if (result.againAfterMs <= 0) this.ready.unshift(index);
		else this.backOff(index, result.againAfterMs);
	}

	/**
	 * A new item's request is made together with those of the next new items, `workers` in all:
	 * n8n evaluates their expressions back to back, which costs it less than one at a time between
	 * requests. In the order they are sent, and none past an item that is not to be sent.
	 */
	private makeAhead(index: number, steps: DispatchSteps): void {
		if (this.madeAhead > 0) {
			this.madeAhead--;
			return;
		}
		if (this.stopped(index)) return;
		steps.prepare(index);
		for (const next of this.fresh.slice(0, this.together - 1)) {
			if (this.stopped(next)) break;
			steps.prepare(next);
			this.madeAhead++;
		}
	}

	/**
	 * Whether the in-flight limit is full while items wait for it: this run's Items per Batch, or
	 * the pace's limit, which the executions that talk to the service share. The report hears how long.
	 */
	private watchLimit(): void {
		const limit = Math.min(this.together, this.pace.pacer.inFlightLimit);
		const waiting = this.fresh.length + this.ready.length + this.asking > 0;
		const full =
			waiting &&
			(this.inFlight >= this.together ||
				this.pace.requestsInFlight >= this.pace.pacer.inFlightLimit);
		const now = this.clock.now();
		if (full) this.fullSince ??= now;
		else if (this.fullSince !== undefined) {
			this.report.limitFull(now - this.fullSince, limit);
			this.fullSince = undefined;
		}
	}

	private backOff(index: number, ms: number): void {
		this.backingOff.add(index);
		void this.clock.sleep(ms).then(() => {
			// Gone already when the breaker tripped in the meantime.
			if (!this.backingOff.delete(index)) return;
			this.ready.push(index);
			this.wakeAll();
		});
	}

	/** The breaker tripped: items waiting out a backoff are not sent again, now. */
	private serviceDown(down: ServiceDown): void {
		this.down = down;
		this.ready.push(...this.backingOff);
		this.backingOff.clear();
		this.wakeAll();
	}

	private wakeAll(): void {
		for (const wake of this.waiters.splice(0)) wake();
	}
}
