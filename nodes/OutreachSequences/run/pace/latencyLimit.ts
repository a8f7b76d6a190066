/**
 * The latency limit: how many requests may be in flight to a service, after
 * TCP Vegas and BBR, Netflix's concurrency-limits and Envoy's adaptive
 * concurrency. It grows while more in flight gets more answers a second, and
 * settles where more no longer does: a far service gets as many at once as
 * it takes to hide the distance, a busy one about as many as it works on.
 *
 * - The start: one request, as nothing is known: a service that never
 *   answers gets one at a time until the breaker opens, and a burst of
 *   executions meets a fresh rate limit one request at a time.
 * - A round is the answers to the requests sent since it began: their mean
 *   round trip (without the slowest, each up to twice the baseline, so that
 *   one slow answer is no line; the lowest lately is the baseline), their
 *   answers a second (the median of each answer's: the answers during its
 *   round trip, BBR's delivery rate), and the most requests in flight with
 *   which one came back on time (within TOLERANCE of the baseline, plus
 *   SLACK_MS).
 * - Slow start: up to DOUBLING_MS away, half a request more per answer on
 *   time, as the pacer's slow start was. Farther, a round on time, while the
 *   limit was in use, takes it to those requests × 2^(baseline ÷
 *   DOUBLING_MS): as fast per second at any distance (time-based), each step
 *   a round of answers that came back without a line (round-based); 3.2 a
 *   round at 100 ms; the first round opens it to FIRST_ROUND_MAX at most (it
 *   may be n8n's own load, many executions starting). No growth while half the requests in flight
 *   (two at least) are out LATE times a round trip on time, nor after a
 *   round trip that grew (n8n's own work, or a line).
 * - It ends at a line: two rounds in a row whose round trip grew while the
 *   answers a second grew by less than GROWING.
 * - Then the limit is the knee: of the last RATE_ROUNDS rounds within
 *   NEAR_TOP of the most answers a second, the fewest in flight that made
 *   them (Little's law; past it, requests only wait in line). Once a cycle it
 *   goes a quarter above the knee for a round, to find more, and a quarter
 *   below for the next, to let a line drain and a lower knee show (a service
 *   that slowed or got busier gets fewer), as BBR probes. A cycle is CYCLE
 *   rounds, or PROBE_ANSWERS answers for a small knee, so that probes put few
 *   requests in a busy service's line. A round with REGROWING more answers a
 *   second than usual restarts slow start: the knee was too low.
 */

import type { Sent } from './latencyRound';
import { Baseline, median, Round } from './latencyRound';

export type { Sent } from './latencyRound';

/** In slow start, the limit may double per this much round trip. */
export const DOUBLING_MS = 60;
const FAR_MS = 2.5 * DOUBLING_MS; // A first answer this slow or slower makes the service far on its own.
/** What the first round alone may open the limit to: a fresh rate limit meets at most this many at once. */
const FIRST_ROUND_MAX = 8;
/** In slow start, the limit grows at least by this share a round. */
const SLOW_START_GROWTH = 0.5;
/** A round trip up to this share above the baseline, plus SLACK_MS, holds. */
const TOLERANCE = 0.2;
const SLACK_MS = 5;
/** In slow start, a request in flight this many times the round trip that holds is late. */
const LATE = 1.25;
/** The knee is taken from this many rounds, of those within NEAR_TOP of their most answers a second. */
const RATE_ROUNDS = 10;
const NEAR_TOP = 0.95;
/** In slow start, a round with this much more than the best answers a second is still growing. */
const GROWING = 1.25;
/** After slow start, a round with this much more than the usual answers a second lately (their median) restarts it. */
const REGROWING = 1.15;
/** After slow start, a cycle is at least this many rounds (twice as many at most), and this many answers. */
const CYCLE = 8;
const PROBE_ANSWERS = 64;

export class LatencyLimit {
	private value = 1;
	private slowStart = true;
	private seq = 0;
	private inFlight = 0;
	private delivered = 0;
	private readonly lowest = new Baseline();
	private round = new Round(0);
	/** The last RATE_ROUNDS rounds: their answers a second, and by Little's law the requests in flight that made them. */
	private readonly rounds: Array<{ rate: number; inFlight: number }> = [];
	/** In slow start, rounds in a row that showed a line; after it, rounds into the cycle. */
	private lineRounds = 0;
	private phase = 0;
	/** In slow start: the requests in flight, oldest first, and whether half of them are late. */
	private readonly outstanding: Sent[] = [];
	private late = false;
	/** Times slow start ended at a line, since the limit was made. */
	lines = 0;

	constructor(
		private ceiling: number,
		private readonly now: () => number,
	) {}

	/** The requests allowed in flight now. */
	get limit(): number {
		return Math.max(1, Math.min(this.ceiling, Math.floor(this.value)));
	}

	/** Whether slow start ended: the limit is at the knee the service's answers showed. */
	get settled(): boolean {
		return !this.slowStart;
	}

	/** The knee, once a line made it the limit: the most in flight with which the service got more done. */
	get held(): number | undefined {
		return this.lines > 0 && !this.slowStart ? this.knee() : undefined;
	}

	raiseCeiling(ceiling: number): void {
		this.ceiling = Math.max(this.ceiling, ceiling);
	}

	/** Whether one more request may start with `inFlight` under way; if not, it waits for one to end. */
	allows(inFlight: number): boolean {
		return inFlight < this.limit;
	}

	/** A request starts now, with `inFlight` others under way. */
	started(inFlight: number): Sent {
		this.inFlight++;
		const { value: limit, delivered } = this;
		const at = this.now();
		const sent = { at, seq: ++this.seq, inFlight: inFlight + 1, limit, delivered, done: false };
		if (this.slowStart) this.outstanding.push(sent);
		return sent;
	}

	/** A request ended: `answered` when the service answered it (its round trip counts), not when it failed without an answer or was cancelled. */
	ended(sent: Sent, answered: boolean): void {
		sent.done = true;
		this.inFlight--;
		if (!answered) return;
		const now = this.now();
		const rtt = now - sent.at;
		const baseline = this.baseline();
		const onTime = baseline === Infinity || rtt <= this.threshold();
		const round = this.round;
		round.add(sent, rtt, ++this.delivered, onTime);
		// A near service (up to DOUBLING_MS): half a request more per answer on time, as the pacer's slow start did.
		const near = Math.min(baseline, rtt) <= (this.rounds.length > 0 ? DOUBLING_MS : FAR_MS);
		if (this.slowStart && near && onTime && sent.inFlight >= sent.limit / 2)
			this.value = Math.min(this.ceiling, this.value + SLOW_START_GROWTH);
		if (sent.seq <= round.endsAfter) return;
		// Right after slow start ends, a round starts with the first answer of the requests sent since.
		if (round.afresh) this.round = new Round(this.seq);
		else this.endRound(now);
	}

	/** How much slow start multiplies the limit by a round, at this round trip. */
	private perRound(roundTrip = this.baseline()): number {
		return Math.max(1 + SLOW_START_GROWTH, 2 ** (roundTrip / DOUBLING_MS));
	}

	/** The round trip that still holds: the baseline with its tolerance. */
	private threshold(): number {
		return this.baseline() * (1 + TOLERANCE) + SLACK_MS;
	}

	private baseline(): number {
		return this.lowest.value;
	}

	private endRound(now: number): void {
		const { rate, used, onTime } = this.round;
		const mean = this.round.roundTrip(2 * this.baseline());
		this.round = new Round(this.seq);
		this.lowest.add(mean, now);
		// A round with fewer requests than the limit allowed says what was asked, not what the service takes.
		if (!used) return;
		const rates = this.rounds.map((round) => round.rate);
		const before = Math.max(0, ...rates);
		const usual = rates.length > 0 ? median(rates) : 0;
		this.rounds.push({ rate, inFlight: rate * mean });
		if (this.rounds.length > RATE_ROUNDS) this.rounds.shift();
		if (this.slowStart) return this.slowStartRound(now, mean, rate > before * GROWING, onTime);
		// The answers of the round after a probe's: more than usual got through, so the knee was too low.
		if (this.phase % this.cycle() === 1 && rate > usual * REGROWING) {
			this.slowStart = true;
			this.lineRounds = 0;
			return;
		}
		this.phase++;
		this.settle();
	}

	private slowStartRound(now: number, mean: number, growing: boolean, onTime: number): void {
		const longer = mean > this.threshold();
		// Two rounds in a row, so that one slow round (n8n busy elsewhere) is not taken for a line.
		this.lineRounds = longer && !growing ? this.lineRounds + 1 : 0;
		if (this.lineRounds >= 2) return this.endSlowStart();
		this.watchOldest(now);
		if (longer || this.late) return;
		// From what the round showed the service takes (its requests on time), not what went out since.
		// The first answer's round trip also opened the connection: it alone makes a service far only past FAR.
		const far = this.baseline() > (this.rounds.length > 1 ? DOUBLING_MS : FAR_MS);
		if (!far) return;
		const perRound = this.perRound();
		const grown = Math.max(onTime * perRound, Math.min(this.value * perRound, onTime + 1));
		const cap = this.rounds.length > 1 ? Infinity : FIRST_ROUND_MAX;
		this.value = Math.min(this.ceiling, cap, Math.max(this.value, grown));
	}

	/** The knee: of the last rounds within NEAR_TOP of the most answers a second, the fewest in flight that made them. */
	private knee(): number {
		const top = Math.max(...this.rounds.map((round) => round.rate));
		const near = this.rounds.filter((round) => round.rate >= top * NEAR_TOP);
		return Math.max(1, Math.round(Math.min(...near.map((round) => round.inFlight))));
	}

	/** Rounds in a cycle: CYCLE, or enough for PROBE_ANSWERS answers at the knee (twice CYCLE at most). */
	private cycle(): number {
		return Math.min(2 * CYCLE, Math.max(CYCLE, Math.ceil(PROBE_ANSWERS / this.knee())));
	}

	/** The limit at its place in the cycle: a quarter above the knee (one more at least), a quarter below it (one less), or at it. */
	private settle(): void {
		const knee = this.knee();
		const at = this.phase % this.cycle();
		const value =
			at === 0
				? Math.max(knee + 1, Math.round(knee * 1.25))
				: at === 1
					? Math.min(knee - 1, Math.floor(knee * 0.75))
					: knee;
		this.value = Math.max(1, Math.min(this.ceiling, value));
	}

	/** In slow start, whether half the requests in flight are well past a round trip that holds. */
	private watchOldest(now: number): void {
		this.late = false;
		if (this.baseline() === Infinity) return;
		while (this.outstanding.length > 0 && this.outstanding[0].done) this.outstanding.shift();
		const lateBefore = now - this.threshold() * LATE;
		let late = 0;
		for (const sent of this.outstanding) {
			if (sent.at >= lateBefore) break;
			if (!sent.done) late++;
		}
		this.late = late >= 2 && late >= this.inFlight / 2;
	}

	/** A line: the limit goes to the knee, and what was under way before does not count. */
	private endSlowStart(): void {
		this.lines++;
		this.slowStart = false;
		// The cycle starts with rounds at the knee: the line of the overshoot drains first.
		this.phase = 2;
		this.settle();
		this.round = new Round(this.seq, true);
		this.outstanding.length = 0;
	}
}
