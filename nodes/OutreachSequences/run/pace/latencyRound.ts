/**
 * What the latency limit (latencyLimit.ts) reads from the answers: a round,
 * the answers to the requests sent since it began, and the baseline, the
 * lowest round trip of a round lately.
 */

/** One request that went out: when, its place in the order of sending, and how many were in flight with it. */
export interface Sent {
	at: number;
	seq: number;
	inFlight: number;
	/** The limit when it went: it was in use when `inFlight` was at least half of it. */
	limit: number;
	/** Answers so far when it went. */
	delivered: number;
	/** Ended, answered or not. */
	done: boolean;
}

/** The baseline is the lowest round's round trip in the last one or two of these: a service that slowed for good is not held to its old speed for long. */
const BASELINE_WINDOW_MS = 10_000;

/** The answers of one round, as they come. */
export class Round {
	private readonly rates: number[] = [];
	private readonly roundTrips: number[] = [];
	answers = 0;
	/** The most requests in flight with which an answer came back on time. */
	onTime = 0;
	/** Whether the limit was in use: an answer went with at least half of it in flight. */
	used = false;

	constructor(
		/** It ends with the answer to a request sent after this one. */
		readonly endsAfter: number,
		/** Right after slow start ends: the answers until the first of the requests sent since do not count. */
		readonly afresh = false,
	) {}

	/** An answer, `delivered` answers so far with it. Its rate is the answers during its round trip (BBR's delivery rate). */
	add(sent: Sent, rtt: number, delivered: number, onTime: boolean): void {
		this.rates.push((delivered - sent.delivered) / Math.max(1, rtt));
		this.roundTrips.push(rtt);
		this.answers++;
		this.used ||= sent.inFlight >= sent.limit / 2;
		if (onTime) this.onTime = Math.max(this.onTime, sent.inFlight);
	}

	/**
	 * Its round trip: the mean of its answers', each counted up to `cap`, and without the slowest of
	 * three or more, so that one slow answer is no line.
	 */
	roundTrip(cap: number): number {
		const counted = [...this.roundTrips].sort((a, b) => a - b);
		if (counted.length >= 3) counted.pop();
		return counted.reduce((sum, rtt) => sum + Math.min(rtt, cap), 0) / counted.length;
	}

	/** Its answers per ms: the median of its answers'. */
	get rate(): number {
		return median(this.rates);
	}
}

/** The lowest round trip of a round in this window and in the one before. */
export class Baseline {
	private current = Infinity;
	private previous = Infinity;
	private since = 0;

	get value(): number {
		return Math.min(this.current, this.previous);
	}

	add(mean: number, now: number): void {
		if (now - this.since > BASELINE_WINDOW_MS) {
			this.previous = this.current;
			this.current = Infinity;
			this.since = now;
		}
		this.current = Math.min(this.current, mean);
	}
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}
