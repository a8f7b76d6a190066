/** Sends one execution's items as fast as the service's shared pace allows, retries before new items. */
import type { RunReport } from '../outcome/runReport';
import type { ServiceDown } from '../pace/breaker';
import type { RequestEnd, ServicePace, Turn } from '../pace/servicePace';
import type { LoopPorts } from './items';

// Unsent items await nothing: yield to n8n's event loop every this many, or thousands would block it.
const YIELD_EVERY = 32;

export interface SendResult {
	end: RequestEnd;
	againAfterMs?: number;
}

export interface DispatchSteps {
	prepare(index: number): boolean;
	ready(index: number): Promise<boolean>;
	send(index: number, turn: Turn, remaining: () => number): Promise<SendResult>;
	serviceDown(index: number, down: ServiceDown): void;
}

export class Dispatcher {
	private inFlight = 0;
	private fresh: number[] = [];
	private ready: number[] = [];
	private readonly backingOff = new Set<number>();
	/** From an item's failure until it goes out again: backing off, ready, or waiting for a turn. */
	private readonly retrying = new Set<number>();
	private waiters: Array<() => void> = [];
	private down: ServiceDown | undefined;
	private together = 1;
	private unsent = 0;
	private pause: Promise<void> | undefined;
	/** A step's error, thrown only once every request in flight has ended, so each one is heard. */
	private thrown: { error: unknown } | undefined;
	private asking = 0;
	private fullSince: number | undefined;

	constructor(
		private readonly pace: ServicePace,
		private readonly isStopped: (index: number) => boolean,
		private readonly clock: Pick<LoopPorts, 'now' | 'sleep'>,
		private readonly report: RunReport,
	) {}

	async run(indices: number[], workers: number, steps: DispatchSteps): Promise<void> {
		this.fresh = [...indices];
		this.together = Math.max(1, workers);
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

	private stopped(index: number): boolean {
		return this.thrown !== undefined || this.isStopped(index);
	}

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
		// A turn is taken only once the item's mark is written: no turn is held while n8n's database answers.
		if (this.stopped(index) || !steps.prepare(index) || !(await steps.ready(index))) {
			this.retrying.delete(index);
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
