/**
 * How fast the node sends, learned from the service's answers. Until the
 * service first says "too many" (429, 503, …), only the in-flight bound holds
 * requests back, so a run against a service without limits costs nothing.
 * Then:
 * - no new request starts until the wait the service asked for has passed;
 * - the requests allowed in flight are halved, and grow again by one per
 *   window of successes (additive increase, multiplicative decrease);
 * - the send rate drops below the rate that was just rejected, and grows back
 *   along a cubic curve, as TCP CUBIC does: quickly while far below that rate,
 *   flat near it, then probing above it. A service that refills its allowance
 *   during the pause is used to the full; one that doesn't sees few rejections.
 * The new rate is also held to what the service accepted over the last epoch
 * and its pause: a service with a deep bucket lets the node run above its
 * rate for a while, so the rate that was rejected can be far too high. Until
 * a rate has held for a whole second, each rejection at least halves it, so
 * the first guess is found in a few steps.
 * Rejections of requests sent before a pause count as that one event.
 */

/** The requests sent between two pauses. A request's ticket is its epoch. */
export interface Epoch {
	startedAt: number;
	lastSentAt: number;
	sent: number;
	accepted: number;
}

const HALVING = 0.5;
const GENTLE = 0.9;
/** Requests per second per second³ of the cubic growth. */
const CUBIC_SCALE = 0.05;
/** A rate that has held this long is trusted: later rejections lower it gently. */
const TRUSTED_AFTER_MS = 1000;
const MIN_RATE = 0.1;

export class RequestPacer {
	private window: number;
	private rate = Infinity;
	private tokens = 1;
	private refilledAt = 0;
	private pausedUntil = 0;
	private epoch: Epoch;
	/** The epoch that ended in a rejection, judged once its pause is over and its answers are in. */
	private pending?: Epoch;
	private rejectedRate = Infinity;
	private startRate = Infinity;
	private growingSince = 0;
	private trusted = false;
	/** Slowdowns in a row without a success in between, for the backoff. */
	consecutiveSlowdowns = 0;

	constructor(
		private readonly ceiling: number,
		private readonly now: () => number,
	) {
		this.window = ceiling;
		this.epoch = newEpoch(now());
	}

	/** The requests allowed in flight now. */
	get inFlightLimit(): number {
		return Math.floor(this.window);
	}

	/** Requests per second allowed now; Infinity until the service first pushes back. */
	get sendRate(): number {
		return this.rate;
	}

	/** How long until another request may start: 0 now, Infinity when one in flight must finish first. */
	readyIn(inFlight: number): number {
		const now = this.now();
		if (now < this.pausedUntil) return this.pausedUntil - now;
		this.judgePendingEpoch(now);
		if (inFlight >= this.inFlightLimit) return Infinity;
		if (this.rate === Infinity) return 0;
		this.refill(now);
		return this.tokens >= 1 ? 0 : ((1 - this.tokens) * 1000) / this.rate;
	}

	/** A request starts now; call only when readyIn gave 0. */
	start(): Epoch {
		const now = this.now();
		if (this.rate !== Infinity) {
			this.refill(now);
			this.tokens -= 1;
		}
		this.epoch.sent++;
		this.epoch.lastSentAt = now;
		return this.epoch;
	}

	succeeded(ticket: Epoch): void {
		ticket.accepted++;
		this.consecutiveSlowdowns = 0;
		this.window = Math.min(this.ceiling, this.window + 1 / this.window);
	}

	/** Whether a push-back on a request of `ticket` would start a new slowdown. */
	wouldStartSlowdown(ticket: Epoch): boolean {
		return ticket === this.epoch && !this.pending;
	}

	/**
	 * The service pushed back on a request of `ticket`: nothing new starts for
	 * `waitMs`. True when this starts a new slowdown, false for a request that
	 * was already under way when an earlier one did.
	 */
	pushedBack(ticket: Epoch, waitMs: number): boolean {
		const now = this.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
		if (!this.wouldStartSlowdown(ticket)) return false;
		this.consecutiveSlowdowns++;
		this.pending = ticket;
		this.rejectedRate = Math.min(this.currentRate(now), sendRateOf(ticket));
		this.window = Math.max(1, Math.floor(this.window / 2));
		return true;
	}

	private judgePendingEpoch(now: number): void {
		const ended = this.pending;
		if (!ended) return;
		this.pending = undefined;
		if (ended.lastSentAt - ended.startedAt >= TRUSTED_AFTER_MS) this.trusted = true;
		const accepted = (ended.accepted * 1000) / Math.max(1, now - ended.startedAt);
		const lowered = this.trusted
			? Math.min(this.rejectedRate * GENTLE, Math.max(accepted, this.rejectedRate * HALVING))
			: Math.min(this.rejectedRate * HALVING, 2 * accepted);
		this.startRate = Math.max(MIN_RATE, Math.min(lowered, this.rejectedRate));
		this.rate = this.startRate;
		this.growingSince = now;
		this.tokens = 1;
		this.refilledAt = now;
		this.epoch = newEpoch(now);
	}

	private currentRate(now: number): number {
		if (this.rejectedRate === Infinity && this.rate === Infinity) return Infinity;
		this.refill(now);
		return this.rate;
	}

	/** The cubic curve from startRate now, flat at rejectedRate after K seconds, then above it. */
	private refill(now: number): void {
		if (this.rate !== Infinity && this.rejectedRate !== Infinity) {
			const seconds = (now - this.growingSince) / 1000;
			const k = Math.cbrt((this.rejectedRate - this.startRate) / CUBIC_SCALE);
			this.rate = Math.max(MIN_RATE, CUBIC_SCALE * (seconds - k) ** 3 + this.rejectedRate);
			this.tokens = Math.min(1, this.tokens + ((now - this.refilledAt) * this.rate) / 1000);
		}
		this.refilledAt = now;
	}
}

function newEpoch(now: number): Epoch {
	return { startedAt: now, lastSentAt: now, sent: 0, accepted: 0 };
}

/** Requests per second an epoch was sent at. */
function sendRateOf(epoch: Epoch): number {
	return (epoch.sent * 1000) / Math.max(1, epoch.lastSentAt - epoch.startedAt);
}
