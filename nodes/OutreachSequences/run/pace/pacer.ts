/** Learns how fast to send to a service: slow start, then half as many in flight and a lower rate on a push-back. */

/** The requests sent since the last slowdown: one push-back among them is one slowdown. */
export interface Epoch {
	startedAt: number;
	sent: number;
	accepted: number;
}

/** The rate grows back by this share of the rate pushed back on, per second of answers. */
const GROWTH = 0.02;
const MIN_RATE = 0.1;
/** A request after a longer gap with nothing in flight (nor due at the rate) starts a new epoch. */
const IDLE_GAP_MS = 1000;

export class RequestPacer {
	private window = 1;
	/** Requests per second once the service has pushed back; until then no bound but the window. */
	sendRate = Infinity;
	private tokens = 1;
	private refilledAt = 0;
	private pausedUntil = 0;
	private epoch: Epoch;
	private pending?: Epoch;
	/** The rate of the last slowdown; until the first, slow start. */
	private rejectedRate = Infinity;
	private idleSince: number | undefined;
	consecutiveSlowdowns = 0;

	constructor(
		private ceiling: number,
		private readonly now: () => number,
	) {
		this.epoch = newEpoch(now());
	}

	/** `fixed` (Batching › Limit: Fixed) opens the window to the ceiling at once, skipping slow start. */
	raiseCeiling(ceiling: number, fixed = false): void {
		this.ceiling = Math.max(this.ceiling, ceiling);
		if (fixed && this.rejectedRate === Infinity) this.window = Math.max(this.window, ceiling);
	}

	pausedFor(): number {
		return Math.max(0, this.pausedUntil - this.now());
	}

	get inFlightLimit(): number {
		return Math.floor(this.window);
	}

	readyIn(inFlight: number): number {
		const now = this.now();
		if (now < this.pausedUntil) return this.pausedUntil - now;
		this.judgePending(now);
		if (inFlight >= this.inFlightLimit) return Infinity;
		this.refill(now);
		return this.tokens >= 1 - 1e-9 ? 0 : ((1 - this.tokens) * 1000) / this.sendRate;
	}

	start(): Epoch {
		const now = this.now();
		this.refill(now);
		this.tokens -= 1;
		const gapMs = now - (this.idleSince ?? now);
		if (this.epoch.sent === 0 || gapMs > Math.max(IDLE_GAP_MS, 1000 / this.sendRate))
			this.epoch = newEpoch(now);
		this.idleSince = undefined;
		this.epoch.sent++;
		return this.epoch;
	}

	idle(): void {
		this.idleSince ??= this.now();
	}

	succeeded(ticket: Epoch): void {
		ticket.accepted++;
		this.consecutiveSlowdowns = 0;
		const slowStart = this.rejectedRate === Infinity;
		this.window = Math.min(this.ceiling, this.window + (slowStart ? 0.5 : 1 / this.window));
		if (this.sendRate !== Infinity) this.sendRate += (GROWTH * this.rejectedRate) / this.sendRate;
	}

	wouldStartSlowdown(ticket: Epoch): boolean {
		return ticket === this.epoch && !this.pending;
	}

	/** False for a request already under way when an earlier push-back started the slowdown: one event. */
	pushedBack(ticket: Epoch, waitMs: number): boolean {
		const now = this.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
		if (!this.wouldStartSlowdown(ticket)) return false;
		this.consecutiveSlowdowns++;
		const sentRate = (ticket.sent * 1000) / Math.max(1, now - ticket.startedAt);
		this.pending = ticket;
		this.rejectedRate = Math.min(this.sendRate, sentRate);
		this.window = Math.max(1, Math.floor(this.window / 2));
		return true;
	}

	/**
	 * Once the pause is over: below the rate pushed back on, and near what the service accepted
	 * meanwhile (a deep bucket lets the node exceed the service's rate for a while).
	 */
	private judgePending(now: number): void {
		const epoch = this.pending;
		if (!epoch) return;
		this.pending = undefined;
		const { rejectedRate } = this;
		const accepted = (epoch.accepted * 1000) / Math.max(1, now - epoch.startedAt);
		const lowered = Math.min(
			0.9 * rejectedRate,
			2 * accepted,
			Math.max(accepted, rejectedRate / 2),
		);
		this.sendRate = Math.max(MIN_RATE, lowered);
		this.tokens = 1;
		this.refilledAt = now;
		this.epoch = newEpoch(now);
	}

	private refill(now: number): void {
		const added = this.sendRate === Infinity ? 1 : ((now - this.refilledAt) * this.sendRate) / 1000;
		this.tokens = Math.min(1, this.tokens + added);
		this.refilledAt = now;
	}
}

function newEpoch(now: number): Epoch {
	return { startedAt: now, sent: 0, accepted: 0 };
}
