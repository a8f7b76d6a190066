/** Learns how fast to send to a service: slow start, halving on push-back, regrowth on a cubic curve. */

export interface Epoch {
	startedAt: number;
	lastSentAt: number;
	sent: number;
	accepted: number;
	idleMs: number;
}

const GENTLE = 0.9;
/** Growth per second³ as a share of the rejected rate: regrowth takes as long at 5 req/s as at 500. */
const CUBIC_SHARE = 0.00025;
/** Until a rate has held this long, each rejection at least halves it, to find a first guess fast. */
const TRUSTED_AFTER_MS = 1000;
const MIN_RATE = 0.1;
/** How much of an idle gap counts in an epoch's rates: about the time a service takes to refill. */
const IDLE_GAP_MS = 1000;

export class RequestPacer {
	private window = 1;
	private slowStart = true;
	/** Requests per second once the service has pushed back; until then no bound but the window. */
	sendRate = Infinity;
	private tokens = 1;
	private refilledAt = 0;
	private pausedUntil = 0;
	private epoch: Epoch;
	private pending?: Epoch;
	private rejectedRate = Infinity;
	private startRate = Infinity;
	private growingSince = 0;
	private trusted = false;
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
		if (fixed && this.slowStart) this.window = Math.max(this.window, ceiling);
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
		this.judgePendingEpoch(now);
		if (inFlight >= this.inFlightLimit) return Infinity;
		if (this.sendRate === Infinity) return 0;
		this.refill(now);
		return this.tokens >= 1 ? 0 : ((1 - this.tokens) * 1000) / this.sendRate;
	}

	start(): Epoch {
		const now = this.now();
		if (this.sendRate !== Infinity) {
			this.refill(now);
			this.tokens -= 1;
		}
		// Idle time (e.g. waiting on n8n's database) must not count against what the service accepted.
		if (this.epoch.sent === 0) this.epoch.startedAt = now;
		else if (this.idleSince !== undefined)
			this.epoch.idleMs += Math.max(0, now - this.idleSince - IDLE_GAP_MS);
		this.idleSince = undefined;
		this.epoch.sent++;
		this.epoch.lastSentAt = now;
		return this.epoch;
	}

	idle(): void {
		this.idleSince ??= this.now();
	}

	succeeded(ticket: Epoch): void {
		ticket.accepted++;
		this.consecutiveSlowdowns = 0;
		const growth = this.slowStart ? 0.5 : 1 / this.window;
		this.window = Math.min(this.ceiling, this.window + growth);
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
		this.pending = ticket;
		this.refill(now);
		this.rejectedRate = Math.min(this.sendRate, sendRateOf(ticket));
		this.slowStart = false;
		this.window = Math.max(1, Math.floor(this.window / 2));
		return true;
	}

	// A deep bucket lets the node exceed the service's rate for a while, so also hold to what it accepted.
	private judgePendingEpoch(now: number): void {
		const ended = this.pending;
		if (!ended) return;
		this.pending = undefined;
		if (ended.lastSentAt - ended.startedAt - ended.idleMs >= TRUSTED_AFTER_MS) this.trusted = true;
		const accepted = (ended.accepted * 1000) / Math.max(1, now - ended.startedAt - ended.idleMs);
		const lowered = this.trusted
			? Math.min(this.rejectedRate * GENTLE, Math.max(accepted, this.rejectedRate * 0.5))
			: Math.min(this.rejectedRate * 0.5, 2 * accepted);
		this.startRate = Math.max(MIN_RATE, Math.min(lowered, this.rejectedRate));
		this.sendRate = this.startRate;
		this.growingSince = now;
		this.tokens = 1;
		this.refilledAt = now;
		this.epoch = newEpoch(now);
	}

	private refill(now: number): void {
		if (this.sendRate !== Infinity && this.rejectedRate !== Infinity) {
			const seconds = (now - this.growingSince) / 1000;
			const scale = CUBIC_SHARE * this.rejectedRate;
			const k = Math.cbrt((this.rejectedRate - this.startRate) / scale);
			this.sendRate = Math.max(MIN_RATE, scale * (seconds - k) ** 3 + this.rejectedRate);
			this.tokens = Math.min(1, this.tokens + ((now - this.refilledAt) * this.sendRate) / 1000);
		}
		this.refilledAt = now;
	}
}

function newEpoch(now: number): Epoch {
	return { startedAt: now, lastSentAt: now, sent: 0, accepted: 0, idleMs: 0 };
}

function sendRateOf(epoch: Epoch): number {
	return (epoch.sent * 1000) / Math.max(1, epoch.lastSentAt - epoch.startedAt - epoch.idleMs);
}
