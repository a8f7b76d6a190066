/** A service's breaker: opens when most recent requests get no useful answer, then lets one probe out. */

export const BREAKER_WINDOW = 10;
const BREAKER_MIN_FAILURES = 5;
/** How long nothing new starts once it opens, before the probe. */
export const BREAKER_PAUSE_MS = 1000;

/** How a request ended, for the breaker: a useful answer, none (and whether it goes again), or never sent. */
export type RequestEnd =
	| 'answered'
	| { failedWith: string; again: boolean }
	| 'cancelled'
	| 'refused';

export interface ServiceDown {
	failed: number;
	of: number;
	labels: Record<string, number>;
}

export type BreakerGate =
	| { state: 'closed' }
	| { state: 'open'; waitMs: number }
	| { state: 'probe' }
	| { state: 'probing' };

export class Breaker {
	private recent: Array<string | undefined> = [];
	private openUntil: number | undefined;
	private trusted = false;
	probing = false;
	opened = 0;
	/** A waiting request that sees this grow is not sent. */
	tripCount = 0;
	down: ServiceDown = { failed: 0, of: 0, labels: {} };

	constructor(private readonly now: () => number) {}

	get isClosed(): boolean {
		return this.openUntil === undefined;
	}

	gate(): BreakerGate {
		if (this.openUntil === undefined) return { state: 'closed' };
		if (this.probing) return { state: 'probing' };
		const waitMs = this.openUntil - this.now();
		return waitMs > 0 ? { state: 'open', waitMs } : { state: 'probe' };
	}

	ended(end: RequestEnd, probe: boolean): void {
		if (probe) this.probing = false;
		if (end === 'cancelled' || end === 'refused') return;
		const failedWith = end === 'answered' ? undefined : end.failedWith;
		if (probe && failedWith === undefined) {
			this.openUntil = undefined;
			this.recent = [];
			this.trusted = true;
			return;
		}
		// So a gateway that fails each request once does not look down: once trusted, only failed resends count.
		if (!probe && end !== 'answered' && end.again && this.trusted) return;
		this.recent = [...this.recent, failedWith].slice(-BREAKER_WINDOW);
		const failures = this.recent.filter((label): label is string => label !== undefined);
		const looksDown =
			failures.length >= BREAKER_MIN_FAILURES && failures.length * 2 > this.recent.length;
		if (!probe && (this.openUntil !== undefined || !looksDown)) return;
		if (probe) {
			this.tripCount++;
			const labels: Record<string, number> = {};
			for (const label of failures) labels[label] = (labels[label] ?? 0) + 1;
			this.down = { failed: failures.length, of: this.recent.length, labels };
		} else {
			this.opened++;
			this.trusted = false;
		}
		this.openUntil = this.now() + BREAKER_PAUSE_MS;
	}
}
