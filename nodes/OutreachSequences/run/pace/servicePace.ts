/** One pace per service per n8n process: its executions share one turn order, pacer and breaker. */
import { createHash } from 'node:crypto';

import type { RequestEnd, ServiceDown } from './breaker';
import { Breaker } from './breaker';
import type { Epoch } from './pacer';
import { RequestPacer } from './pacer';

export interface Turn {
	epoch: Epoch;
	probe: boolean;
}

export type { RequestEnd } from './breaker';

type TurnResult = Turn | { down: ServiceDown } | undefined;

export const IDLE_MS = 10 * 60_000;
/** A long wait is slept in steps this long, so that a stopped execution ends soon. */
const WAIT_STEP_MS = 500;

export class ServicePace {
	readonly pacer: RequestPacer;
	readonly breaker: Breaker;
	requestsInFlight = 0;
	/** Time spent waiting for the pacer, by any execution: the run reports its share. */
	heldBackMs = 0;
	private gate: Promise<unknown> = Promise.resolve();
	private completions: Array<() => void> = [];
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

	isIdle(nowMs: number): boolean {
		return this.users <= 0 && this.requestsInFlight === 0 && nowMs - this.lastUsed >= IDLE_MS;
	}

	turn(
		isStopped: () => boolean,
		sleep: (ms: number) => Promise<void>,
		waited?: (ms: number) => void,
	): Promise<TurnResult> {
		const heldBackBefore = this.heldBackMs;
		const tripsBefore = this.breaker.tripCount;
		const turn = this.gate.then(async (): Promise<TurnResult> => {
			for (;;) {
				if (isStopped()) return undefined;
				if (this.breaker.tripCount > tripsBefore) return { down: this.breaker.down };
				const gate = this.breaker.gate();
				const wait =
					gate.state === 'open'
						? gate.waitMs
						: gate.state === 'probing'
							? Infinity
							: this.pacer.readyIn(this.requestsInFlight);
				if (wait === 0) {
					this.requestsInFlight++;
					if (this.heldBackMs > heldBackBefore) waited?.(this.heldBackMs - heldBackBefore);
					const probe = gate.state === 'probe';
					this.breaker.probing ||= probe;
					return { epoch: this.pacer.start(), probe };
				}
				if (wait === Infinity) await new Promise<void>((wake) => this.completions.push(wake));
				else {
					const from = this.now();
					await sleep(Math.min(wait, WAIT_STEP_MS));
					if (gate.state !== 'open') this.heldBackMs += Math.max(0, this.now() - from);
				}
			}
		});
		this.gate = turn.catch(() => undefined);
		return turn;
	}

	finished(turn: Turn, end: RequestEnd): void {
		this.requestsInFlight--;
		this.lastUsed = this.now();
		this.breaker.ended(end, turn.probe);
		for (const wake of this.completions.splice(0)) wake();
		if (this.requestsInFlight === 0) this.pacer.idle();
	}
}

const paces = new Map<string, ServicePace>();

/** Hashed so that the API key is never held in clear. */
export function serviceKey(baseUrl: string, apiKey: unknown): string {
	return createHash('sha256')
		.update(`${baseUrl}\n${String(apiKey)}`)
		.digest('hex');
}

export function servicePace(
	baseUrl: string,
	apiKey: unknown,
	ceiling: number,
	now: () => number = Date.now,
): ServicePace {
	for (const [key, pace] of paces) if (pace.isIdle(now())) paces.delete(key);
	const key = serviceKey(baseUrl, apiKey);
	const pace = paces.get(key) ?? new ServicePace(ceiling, now);
	paces.set(key, pace);
	return pace;
}

/** For the engine tests: each workflow runs as if in a fresh n8n process. */
export function forgetServices(): void {
	paces.clear();
}
