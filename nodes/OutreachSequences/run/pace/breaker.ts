/** A service's breaker: opens when most recent requests get no useful answer, then lets one probe out. */

export const BREAKER_WINDOW = 10;
export const BREAKER_MIN_FAILURES = 5;
/** About one backoff, so that a request waiting out its own can be the probe. */
export const BREAKER_PAUSE_MS = 1000;

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
	private probing = false;
	private trips = 0;
	private trusted = false;
	private lastDown: ServiceDown = { failed: 0, of: 0, labels: {} };
	opened = 0;

	constructor(private readonly now: () => number) {}

	/** A waiting request that sees this grow is not sent. */
	get tripCount(): number {
		return this.trips;
	}

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

	probeStarted(): void {
		this.probing = true;
	}

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
		// So a gateway that fails each request once does not look down: once trusted, only failed resends count.
		if (failedWith !== undefined && again && this.trusted) return;
		this.recent.push(failedWith);
		if (this.recent.length > BREAKER_WINDOW) this.recent.shift();
		if (this.openUntil === undefined && this.looksDown()) {
			this.opened++;
			this.trusted = false;
			this.openUntil = this.now() + BREAKER_PAUSE_MS;
		}
	}

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
