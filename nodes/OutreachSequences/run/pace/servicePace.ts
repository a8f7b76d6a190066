/**
 * One pace per service in this n8n process. Every execution of the node that
 * talks to the same service (the same Base URL and API key) waits its turn at
 * the same gate and learns with the same pacer: a 429 or 503 that one
 * execution meets, the wait the service asked for, and the rate it accepted
 * hold back the others too, and a new execution starts at the pace already
 * learned. Turns are handed out in the order they were asked for, across
 * executions. The service's breaker (breaker.ts) is kept here too: while it
 * is open, no turn is handed out but its probe's.
 *
 * What is kept is bounded: a service nobody has used for IDLE_MS is
 * forgotten, and at most MAX_SERVICES are remembered. The key is only ever
 * held as part of a hash. Nothing is shared between n8n processes.
 */
import { createHash } from 'node:crypto';

import type { ServiceDown } from './breaker';
import { Breaker } from './breaker';
import type { Epoch } from './pacer';
import { RequestPacer } from './pacer';

/** A request's turn: its pacer epoch, and whether it goes as the breaker's probe. */
export interface Turn {
	epoch: Epoch;
	probe: boolean;
}

/**
 * How a request that had a turn ended, for the breaker: with a useful answer,
 * with none (the failure's label: "timeout", "HTTP 502"), or not at all:
 * `cancelled` when its execution stopped, `refused` when n8n would not send
 * it (transport/refusal.ts). The breaker counts neither of the last two.
 */
export type RequestEnd =
	| 'answered'
	| { failedWith: string; again: boolean }
	| 'cancelled'
	| 'refused';

/** How long a service nobody uses keeps its learned pace. */
export const IDLE_MS = 10 * 60_000;
/** The most services remembered at once. */
export const MAX_SERVICES = 256;
/** A long wait is slept in steps this long, so that a stopped execution ends soon. */
const WAIT_STEP_MS = 500;

export class ServicePace {
	readonly pacer: RequestPacer;
	readonly breaker: Breaker;
	/** Requests to the service in flight now, from every execution. */
	private inFlight = 0;
	/** Turns are handed out one at a time, in the order they were asked for. */
	private gate: Promise<unknown> = Promise.resolve();
	private completions: Array<() => void> = [];
	/** How long, in all, the pace has held requests back (a pause, or the send rate): one turn waits at a time. */
	private heldBack = 0;
	/** Turns asked for and not yet handed out (or given up). */
	private waiting = 0;
	/** Executions using this pace now. */
	private users = 0;
	private lastUsed: number;

	constructor(
		ceiling: number,
		private readonly now: () => number,
	) {
		this.pacer = new RequestPacer(ceiling, now);
		this.breaker = new Breaker(now);
		this.lastUsed = now();
	}

	/** Requests to the service in flight now, from every execution. */
	get requestsInFlight(): number {
		return this.inFlight;
	}

	/** How long, in all, the pace has held requests back since it was made, in ms. */
	get heldBackMs(): number {
		return this.heldBack;
	}

	/** Whether the service has pushed back before: an execution that starts now starts slowed. */
	get learned(): boolean {
		return this.pacer.sendRate !== Infinity || this.pacer.pausedFor() > 0;
	}

	/**
	 * An execution starts using this pace: a larger in-flight bound than any before raises the
	 * pacer's ceiling; with Limit Fixed, the pace opens to it at once if the service has not pushed back.
	 */
	join(ceiling: number, fixed = false): void {
		this.users++;
		this.pacer.raiseCeiling(ceiling, fixed);
		this.lastUsed = this.now();
	}

	leave(): void {
		this.users--;
		this.lastUsed = this.now();
	}

	/** Whether nobody has used it for `idleMs`. */
	isIdle(nowMs: number, idleMs: number): boolean {
		return this.users <= 0 && this.inFlight === 0 && nowMs - this.lastUsed >= idleMs;
	}

	/**
	 * Waits until the breaker and the pacer let one more request start:
	 * undefined once `isStopped()` says the request is no longer to be sent,
	 * `{ down }` when the breaker tripped while it waited, `{ yielded }` when
	 * the breaker would make it the probe and `mayProbe()` says another
	 * request of its execution should be (one that waits out a backoff,
	 * rather than one never sent). Call finished()
	 * when a request that got a turn has ended. `waited` hears how long the
	 * pace held this request back, in line behind others included, when it
	 * did; waiting for a request in flight, or for the breaker, is not counted.
	 */
	turn(
		isStopped: () => boolean,
		sleep: (ms: number) => Promise<void>,
		waited?: (ms: number) => void,
		mayProbe: () => boolean = () => true,
	): Promise<Turn | { down: ServiceDown } | { yielded: true } | undefined> {
		const heldBackBefore = this.heldBack;
		const tripsBefore = this.breaker.tripCount;
		const turn = this.gate.then(
			async (): Promise<Turn | { down: ServiceDown } | { yielded: true } | undefined> => {
				for (;;) {
					if (isStopped()) return undefined;
					if (this.breaker.tripCount > tripsBefore) return { down: this.breaker.down };
					const gate = this.breaker.gate();
					if (gate.state === 'open') {
						await sleep(Math.min(gate.waitMs, WAIT_STEP_MS));
						continue;
					}
					if (gate.state === 'probing') {
						await new Promise<void>((wake) => this.completions.push(wake));
						continue;
					}
					if (gate.state === 'probe' && !mayProbe()) return { yielded: true };
					const wait = this.pacer.readyIn(this.inFlight);
					if (wait === 0) {
						this.inFlight++;
						if (this.heldBack > heldBackBefore) waited?.(this.heldBack - heldBackBefore);
						const probe = gate.state === 'probe';
						if (probe) this.breaker.probeStarted();
						return { epoch: this.pacer.start(), probe };
					}
					if (wait === Infinity) await new Promise<void>((wake) => this.completions.push(wake));
					else {
						const from = this.now();
						await sleep(Math.min(wait, WAIT_STEP_MS));
						this.heldBack += Math.max(0, this.now() - from);
					}
				}
			},
		);
		this.waiting++;
		this.gate = turn.catch(() => undefined);
		void this.gate.then(() => {
			this.waiting--;
			this.idleWhenNothingGoes();
		});
		return turn;
	}

	/** Nothing in flight and no turn asked for: the pacer leaves the time until the next request out of what it learns. */
	private idleWhenNothingGoes(): void {
		if (this.inFlight === 0 && this.waiting === 0) this.pacer.idle();
	}

	/** A request that had a turn ended. */
	finished(turn: Turn, end: RequestEnd): void {
		this.inFlight--;
		this.lastUsed = this.now();
		if (end === 'cancelled' || end === 'refused') {
			if (turn.probe) this.breaker.probeDropped();
		} else if (end === 'answered') this.breaker.ended(undefined, turn.probe);
		else this.breaker.ended(end.failedWith, turn.probe, end.again);
		for (const wake of this.completions.splice(0)) wake();
		this.idleWhenNothingGoes();
	}
}

const paces = new Map<string, ServicePace>();

/** The key of a service: a hash of its Base URL and API key, so that the key is not held in clear. */
export function serviceKey(baseUrl: string, apiKey: unknown): string {
	return createHash('sha256')
		.update(`${baseUrl}\n${String(apiKey)}`)
		.digest('hex');
}

/** Forgets services nobody has used for IDLE_MS; beyond MAX_SERVICES, the idle ones used longest ago first. */
function forgetIdle(nowMs: number): void {
	for (const [key, pace] of paces) if (pace.isIdle(nowMs, IDLE_MS)) paces.delete(key);
	if (paces.size < MAX_SERVICES) return;
	for (const [key, pace] of paces) {
		if (paces.size < MAX_SERVICES) break;
		if (pace.isIdle(nowMs, 0)) paces.delete(key);
	}
}

/** The pace of the service at `baseUrl` with `apiKey`, shared by every execution of this process. */
export function servicePace(
	baseUrl: string,
	apiKey: unknown,
	ceiling: number,
	now: () => number = Date.now,
): ServicePace {
	forgetIdle(now());
	const key = serviceKey(baseUrl, apiKey);
	const pace = paces.get(key) ?? new ServicePace(ceiling, now);
	// Last used last: the map's order is the order of use.
	paces.delete(key);
	paces.set(key, pace);
	return pace;
}

/**
 * Forgets every service, as a new n8n process starts without any. The engine
 * tests run one workflow after another in one process, each as if it were
 * the first.
 */
export function forgetServices(): void {
	paces.clear();
}

/** How many services this process remembers now. */
export function rememberedServices(): number {
	return paces.size;
}
