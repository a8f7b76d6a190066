/**
 * The breaker: when most recent requests to a service got no useful answer
 * (a timeout, a reset, a refused connection, HTTP 5xx other than 503), the
 * service looks down. The breaker opens: no new request starts; after a
 * pause, one request goes as a probe. If the probe gets a useful answer, the
 * breaker closes and requests go on at the pace learned; if not, it trips:
 * the requests waiting for it are not sent, and it opens again.
 *
 * A gateway that fails each request once looks down at first too. So once a
 * probe got an answer, the breaker trusts the service: a failed request that
 * will be sent again counts only when its resend fails as well, until the
 * breaker opens again.
 *
 * It never opens on 429 or 503: those are the pace's to handle. It knows the
 * failures by their labels only ("timeout", "HTTP 502"). One breaker per
 * service, kept with its pace (servicePace.ts).
 */

/** How many recent requests the breaker weighs: enough to tell a burst of bad luck from a pattern. */
export const BREAKER_WINDOW = 10;
/** It opens at this many failures among them, if they are also most of them: a handful is sent to a dead service, not hundreds. */
export const BREAKER_MIN_FAILURES = 5;
/** How long it stays open before its probe: about one backoff, so that a request waiting out its own can be the probe; a dead service still ends a run in seconds. */
export const BREAKER_PAUSE_MS = 1000;

/** Why the breaker tripped: the recent failures, counted by label. */
export interface ServiceDown {
	/** Of the last `of` requests, how many got no useful answer. */
	failed: number;
	of: number;
	/** Each label and how many of them: { timeout: 4, 'HTTP 502': 2 }. */
	labels: Record<string, number>;
}

/** What a request that wants to start may do now. */
export type BreakerGate =
	| { state: 'closed' }
	/** Open: wait this long, then ask again. */
	| { state: 'open'; waitMs: number }
	/** The pause is over and no probe is out: this request may go as the probe. */
	| { state: 'probe' }
	/** A probe is out: wait for its answer. */
	| { state: 'probing' };

export class Breaker {
	/** The labels of the most recent requests' failures, newest last; undefined for a useful answer. */
	private recent: Array<string | undefined> = [];
	private openUntil: number | undefined;
	private probing = false;
	private trips = 0;
	/** A probe got an answer since the breaker last opened. */
	private trusted = false;
	private lastDown: ServiceDown = { failed: 0, of: 0, labels: {} };
	/** Times it opened, since it was made. */
	opened = 0;

	constructor(private readonly now: () => number) {}

	/** Times a probe failed, since the breaker was made: a waiting request that sees this grow is not sent. */
	get tripCount(): number {
		return this.trips;
	}

	/** Why it last tripped. */
	get down(): ServiceDown {
		return this.lastDown;
	}

	get isClosed(): boolean {
		return this.openUntil === undefined;
	}

	gate(): BreakerGate {
		if (this.openUntil === undefined) return { state: 'closed' };
		if (this.probing) return { state: 'probing' };
		const waitMs = this.openUntil - this.now();
		return waitMs > 0 ? { state: 'open', waitMs } : { state: 'probe' };
	}

	/** The request that got { state: 'probe' } goes out now. */
	probeStarted(): void {
		this.probing = true;
	}

	/**
	 * A request ended: `failedWith` is its failure's label when it got no
	 * useful answer, undefined when it did; `probe` when it was the probe;
	 * `again` when its item is to be sent again.
	 */
	ended(failedWith: string | undefined, probe: boolean, again = false): void {
		if (probe) {
			this.probing = false;
			if (failedWith === undefined) {
				this.openUntil = undefined;
				this.recent = [];
				this.trusted = true;
				return;
			}
			this.recent.push(failedWith);
			this.trip();
			return;
		}
		if (failedWith !== undefined && again && this.trusted) return;
		this.recent.push(failedWith);
		if (this.recent.length > BREAKER_WINDOW) this.recent.shift();
		if (this.openUntil === undefined && this.looksDown()) {
			this.opened++;
			this.trusted = false;
			this.openUntil = this.now() + BREAKER_PAUSE_MS;
		}
	}

	/** A request that got the probe's turn was not sent after all (its execution stopped). */
	probeDropped(): void {
		this.probing = false;
	}

	private looksDown(): boolean {
		const failed = this.recent.filter((label) => label !== undefined).length;
		return failed >= BREAKER_MIN_FAILURES && failed * 2 > this.recent.length;
	}

	private trip(): void {
		this.trips++;
		const labels: Record<string, number> = {};
		const failures = this.recent.filter((label): label is string => label !== undefined);
		for (const label of failures) labels[label] = (labels[label] ?? 0) + 1;
		this.lastDown = { failed: failures.length, of: this.recent.length, labels };
		this.recent = this.recent.slice(-BREAKER_WINDOW);
		this.openUntil = this.now() + BREAKER_PAUSE_MS;
	}
}
