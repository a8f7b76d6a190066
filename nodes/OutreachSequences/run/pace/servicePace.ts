/** One pace per service per n8n process: its executions share one turn order, pacer and breaker. */
import { createHash } from 'node:crypto';

import type { ServiceDown } from './breaker';
import { Breaker } from './breaker';
import type { Epoch } from './pacer';
import { RequestPacer } from './pacer';

export interface Turn {
	epoch: Epoch;
	probe: boolean;
}

export type RequestEnd =
	| 'answered'
	| { failedWith: string; again: boolean }
	| 'cancelled'
	| 'refused';

export const IDLE_MS = 10 * 60_000;
export const MAX_SERVICES = 256;
/** A long wait is slept in steps this long, so that a stopped execution ends soon. */
const WAIT_STEP_MS = 500;

export class ServicePace {
	readonly pacer: RequestPacer;
	readonly breaker: Breaker;
	private inFlight = 0;
	private gate: Promise<unknown> = Promise.resolve();
	private completions: Array<() => void> = [];
	private heldBack = 0;
	private waiting = 0;
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

	get requestsInFlight(): number {
		return this.inFlight;
	}

	get heldBackMs(): number {
		return this.heldBack;
	}

	get learned(): boolean {
		return this.pacer.sendRate !== Infinity || this.pacer.pausedFor() > 0;
	}

	join(ceiling: number, fixed = false): void {
		this.users++;
		this.pacer.raiseCeiling(ceiling, fixed);
		this.lastUsed = this.now();
	}

	leave(): void {
		this.users--;
		this.lastUsed = this.now();
	}

	isIdle(nowMs: number, idleMs: number): boolean {
		return this.users <= 0 && this.inFlight === 0 && nowMs - this.lastUsed >= idleMs;
	}

	/** `{ yielded }`: it would be the probe, but mayProbe() prefers one of its execution in backoff. */
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

	private idleWhenNothingGoes(): void {
		if (this.inFlight === 0 && this.waiting === 0) this.pacer.idle();
	}

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

/** Hashed so that the API key is never held in clear. */
export function serviceKey(baseUrl: string, apiKey: unknown): string {
	return createHash('sha256')
		.update(`${baseUrl}\n${String(apiKey)}`)
		.digest('hex');
}

function forgetIdle(nowMs: number): void {
	for (const [key, pace] of paces) if (pace.isIdle(nowMs, IDLE_MS)) paces.delete(key);
	if (paces.size < MAX_SERVICES) return;
	for (const [key, pace] of paces) {
		if (paces.size < MAX_SERVICES) break;
		if (pace.isIdle(nowMs, 0)) paces.delete(key);
	}
}

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

/** For the engine tests: each workflow runs as if in a fresh n8n process. */
export function forgetServices(): void {
	paces.clear();
}

export function rememberedServices(): number {
	return paces.size;
}
