/**
 * How fast the node sends, learned from the service's answers. It starts with
 * one request in flight and adds half a request per success (slow start: the
 * number in flight grows 1.5 times per round of answers, up to the in-flight
 * bound in about nine rounds), so that a burst of executions meeting a fresh
 * service does not send 32 requests into a limit of 5. One pacer serves every
 * execution in the process that talks to the same service (servicePace.ts),
 * so the ramp is paid once, not per execution. Until the service first says
 * "too many" (429, 503, …), nothing else holds requests back. Then:
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
 * the first guess is found in a few steps. In an epoch, a gap with nothing
 * in flight and nothing waiting for a turn counts for at most a second in both
 * rates: past that, it says how little was asked, not how much the service
 * takes. Up to it, the gap counts: a service's allowance refills meanwhile,
 * and between requests to a near service nothing is in flight most of the time.
 * Rejections of requests sent before a pause count as that one event.
 * Batching › Limit: Fixed skips the slow start: until the first push-back,
 * the requests allowed in flight open at once to the execution's Items per
 * Batch (raiseCeiling). After one, they halve and grow back as above.
 */

/** The requests sent between two pauses, from the first of them. A request's ticket is its epoch. */
export interface Epoch {
	startedAt: number;
	lastSentAt: number;
	sent: number;
	accepted: number;
	/** Time in it with nothing in flight and nothing waiting, past the first second of each gap: no demand, which says nothing of the service. */
	idleMs: number;
}

const HALVING = 0.5;
/** Requests in flight at the start, before the service has answered. */
const INITIAL_WINDOW = 1;
/** Added to the requests allowed in flight per success, until the first push-back. */
const SLOW_START_GROWTH = 0.5;
const GENTLE = 0.9;
/**
 * The cubic growth per second³, as a share of the rate that was pushed back:
 * the curve takes as long at 5 requests per second as at 500 (back to a
 * halved rate in ∛(0.5 ÷ 0.00025) ≈ 12.6 s, to a rate lowered by 10% in 7.4 s).
 */
const CUBIC_SHARE = 0.00025;
/** A rate that has held this long is trusted: later rejections lower it gently. */
const TRUSTED_AFTER_MS = 1000;
const MIN_RATE = 0.1;
/** How much of a gap with no demand counts in an epoch's rates: about the time a service takes to refill its allowance. */
const IDLE_GAP_MS = 1000;

export class RequestPacer {
	private window: number;
	/** Until the service first pushes back, the number in flight grows by half a request per success. */
	private slowStart = true;
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
	/** Since when nothing has been in flight or waiting for a turn (idle()); undefined while there is demand. */
	private idleSince: number | undefined;
	/** Slowdowns in a row without a success in between, for the backoff. */
	consecutiveSlowdowns = 0;

	constructor(
		private ceiling: number,
		private readonly now: () => number,
	) {
		this.window = Math.min(ceiling, INITIAL_WINDOW);
		this.epoch = newEpoch(now());
	}

	/**
	 * Allows the requests in flight to grow up to `ceiling` from now on (an execution with a larger
	 * bound joined); `fixed`, opens them to it at once, unless the service has pushed back already.
	 */
	raiseCeiling(ceiling: number, fixed = false): void {
		this.ceiling = Math.max(this.ceiling, ceiling);
		if (fixed && this.slowStart) this.window = Math.max(this.window, ceiling);
	}

	/** How long the current pause still lasts, in ms; 0 when none. */
	pausedFor(): number {
		return Math.max(0, this.pausedUntil - this.now());
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
		// An epoch starts with its first request, not when it was made, and time
		// without demand in it is left out: a pace kept while idle, or while the
		// executions wait for something else (n8n's database), would otherwise
		// count that time against what the service accepted.
		if (this.epoch.sent === 0) this.epoch.startedAt = now;
		else if (this.idleSince !== undefined)
			this.epoch.idleMs += Math.max(0, now - this.idleSince - IDLE_GAP_MS);
		this.idleSince = undefined;
		this.epoch.sent++;
		this.epoch.lastSentAt = now;
		return this.epoch;
	}

	/** Nothing is in flight and no request waits for a turn: the time until the next request is not the service's. */
	idle(): void {
		this.idleSince ??= this.now();
	}

	succeeded(ticket: Epoch): void {
		ticket.accepted++;
		this.consecutiveSlowdowns = 0;
		const growth = this.slowStart ? SLOW_START_GROWTH : 1 / this.window;
		this.window = Math.min(this.ceiling, this.window + growth);
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
		this.slowStart = false;
		this.window = Math.max(1, Math.floor(this.window / 2));
		return true;
	}

	private judgePendingEpoch(now: number): void {
		const ended = this.pending;
		if (!ended) return;
		this.pending = undefined;
		if (ended.lastSentAt - ended.startedAt - ended.idleMs >= TRUSTED_AFTER_MS) this.trusted = true;
		const accepted = (ended.accepted * 1000) / Math.max(1, now - ended.startedAt - ended.idleMs);
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
			const scale = CUBIC_SHARE * this.rejectedRate;
			const k = Math.cbrt((this.rejectedRate - this.startRate) / scale);
			this.rate = Math.max(MIN_RATE, scale * (seconds - k) ** 3 + this.rejectedRate);
			this.tokens = Math.min(1, this.tokens + ((now - this.refilledAt) * this.rate) / 1000);
		}
		this.refilledAt = now;
	}
}

function newEpoch(now: number): Epoch {
	return { startedAt: now, lastSentAt: now, sent: 0, accepted: 0, idleMs: 0 };
}

/** Requests per second an epoch was sent at. */
function sendRateOf(epoch: Epoch): number {
	return (epoch.sent * 1000) / Math.max(1, epoch.lastSentAt - epoch.startedAt - epoch.idleMs);
}
