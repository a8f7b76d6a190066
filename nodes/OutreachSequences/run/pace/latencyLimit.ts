/**
 * The latency limit: how many requests may be in flight to a service, from
 * how fast it answers, as TCP Vegas and BBR keep a window and Netflix's
 * concurrency-limits and Envoy's adaptive concurrency keep a limit. It grows
 * while the service answers as fast as it did lately (a round trip holds),
 * and is cut when answers come back slower: a line formed, at the service or
 * in n8n itself. So a far service gets as many requests at once as it takes
 * to hide the distance, and a busy one about as many as it works on at a
 * time, not a line.
 *
 * - The start: one request, as before any answer nothing is known. A service
 *   that never answers gets one at a time until the breaker opens, and a
 *   burst of executions meets a fresh rate limit one request at a time.
 * - Slow start: each answer that held, while the limit was in use, adds to
 *   it so that a round of answers multiplies it by 2^(round trip ÷
 *   DOUBLING_MS), at least by 1.5. So the limit grows as fast per second at
 *   any distance (time-based), and each step is still an answer that came
 *   back without a line (round-based): 1.5 times per round at 3 ms, as the
 *   pacer's slow start was; 3.2 at 100 ms; 322 at 500 ms, where the first
 *   answer opens the limit to what a round trip that long needs.
 * - In slow start, when half the requests in flight (two at least) have
 *   been out for LATE times a round trip that holds, a line formed before
 *   their answers come: the limit goes down to the answers of the last round
 *   trip. One slow request is not a line.
 * - A round is the answers to the requests sent since it began. Its mean
 *   round trip (each counted up to twice the baseline, so that one slow
 *   answer does not make a line), against the lowest round mean lately (the
 *   baseline), says whether a line formed: more than TOLERANCE above it,
 *   plus SLACK_MS.
 * - A line ends slow start and cuts the limit to what the service worked on
 *   without one (Little's law: the requests in flight × the baseline ÷ the
 *   round trip), by half at most. A round without one adds back half the way
 *   to the limit before the cut (BIC), then one request a round.
 */

/** One request that went out: when, its place in the order of sending, and how many were in flight with it. */
export interface Sent {
	at: number;
	seq: number;
	inFlight: number;
	/** The limit when it went: it was in use when `inFlight` was at least half of it. */
	limit: number;
	/** Ended, answered or not. */
	done: boolean;
}

/** In slow start, the limit may double per this much round trip. */
export const DOUBLING_MS = 60;
/** In slow start, at least this is added per answer that held (1.5 times per round). */
const SLOW_START_GROWTH = 0.5;
/** A round trip up to this share above the baseline still holds … */
const TOLERANCE = 0.1;
/** … plus this much: n8n's own event loop adds a few milliseconds to any answer. */
const SLACK_MS = 5;
/** In slow start, a request in flight this many times the round trip that holds is a line. */
const LATE = 1.25;
/** The baseline is the lowest round mean in the last one or two of these: a service that slowed for good is not held to its old speed for long. */
const BASELINE_WINDOW_MS = 10_000;

export class LatencyLimit {
	private value = 1;
	private slowStart = true;
	/** The limit before the last cut, which quiet rounds grow back towards. */
	private beforeCut = 0;
	private seq = 0;
	private inFlight = 0;
	/** The lowest round means of this baseline window and of the one before. */
	private lowest = { current: Infinity, previous: Infinity, since: 0 };
	/** The round under way: it ends with the answer to a request sent after `endsAfter`. */
	private round = newRound(0);
	/** Answers to requests sent up to here belong to the limit before its last cut. */
	private cutAfter = 0;
	/** In slow start: the requests in flight, oldest first, and when the last round trip's answers came. */
	private readonly outstanding: Sent[] = [];
	private readonly answeredAt: number[] = [];
	/** Times a line was seen, since the limit was made. */
	lines = 0;

	constructor(
		private ceiling: number,
		private readonly now: () => number,
	) {}

	/** The requests allowed in flight now. */
	get limit(): number {
		return Math.max(1, Math.min(this.ceiling, Math.floor(this.value)));
	}

	raiseCeiling(ceiling: number): void {
		this.ceiling = Math.max(this.ceiling, ceiling);
	}

	/** Whether one more request may start with `inFlight` under way; if not, it waits for one to end. */
	allows(inFlight: number): boolean {
		this.watchOldest(this.now());
		return inFlight < this.limit;
	}

	/** A request starts now, with `inFlight` others under way. */
	started(inFlight: number): Sent {
		this.inFlight++;
		const sent: Sent = {
			at: this.now(),
			seq: ++this.seq,
			inFlight: inFlight + 1,
			limit: this.value,
			done: false,
		};
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
		const used = sent.inFlight >= sent.limit / 2;
		if (this.slowStart) {
			this.answeredAt.push(now);
			this.forgetAnswersBefore(now - baseline);
			if (used && (baseline === Infinity || rtt <= this.threshold())) {
				const perRound = 2 ** (Math.min(baseline, rtt) / DOUBLING_MS);
				this.grow(Math.max(SLOW_START_GROWTH, perRound - 1));
			}
		}
		const round = this.round;
		if (sent.seq > this.cutAfter) {
			round.rtt += Math.min(rtt, 2 * baseline);
			round.inFlight += sent.inFlight;
			round.answers++;
			round.used ||= used;
		}
		if (sent.seq > round.endsAfter && round.answers > 0) this.endRound(now);
		this.watchOldest(now);
	}

	/** The round trip that still holds: the baseline with its tolerance. */
	private threshold(): number {
		return this.baseline() * (1 + TOLERANCE) + SLACK_MS;
	}

	private baseline(): number {
		return Math.min(this.lowest.current, this.lowest.previous);
	}

	private grow(by: number): void {
		this.value = Math.min(this.ceiling, this.value + by);
	}

	private endRound(now: number): void {
		const { rtt, inFlight, answers, used } = this.round;
		const mean = rtt / answers;
		this.round = newRound(this.seq);
		if (now - this.lowest.since > BASELINE_WINDOW_MS)
			this.lowest = { current: Infinity, previous: this.lowest.current, since: now };
		this.lowest.current = Math.min(this.lowest.current, mean);
		if (mean > this.threshold()) this.cut(((inFlight / answers) * this.baseline()) / mean);
		else if (!this.slowStart && used) this.grow(Math.max(1, (this.beforeCut - this.value) / 2));
	}

	/** In slow start, half the requests in flight well past a round trip that holds say a line formed: cut to the answers of the last round trip. */
	private watchOldest(now: number): void {
		if (!this.slowStart || this.baseline() === Infinity) return;
		while (this.outstanding.length > 0 && this.outstanding[0].done) this.outstanding.shift();
		const lateBefore = now - this.threshold() * LATE;
		let late = 0;
		for (const sent of this.outstanding) {
			if (sent.at >= lateBefore) break;
			if (!sent.done) late++;
		}
		if (late < 2 || late < this.inFlight / 2) return;
		this.forgetAnswersBefore(now - this.baseline());
		this.cut(this.answeredAt.length * (1 + TOLERANCE));
	}

	/** Keeps the answers of the last round trip only. */
	private forgetAnswersBefore(since: number): void {
		while (this.answeredAt.length > 0 && this.answeredAt[0] <= since) this.answeredAt.shift();
	}

	/** A line: the limit goes down to `estimate`, by half at most, and what was under way before does not count again. */
	private cut(estimate: number): void {
		this.lines++;
		this.beforeCut = this.value;
		this.value = Math.max(1, Math.min(this.value, Math.max(this.value / 2, estimate)));
		this.cutAfter = this.seq;
		this.round = newRound(this.seq);
		this.slowStart = false;
		this.outstanding.length = 0;
		this.answeredAt.length = 0;
	}
}

function newRound(endsAfter: number) {
	return { endsAfter, rtt: 0, inFlight: 0, answers: 0, used: false };
}
