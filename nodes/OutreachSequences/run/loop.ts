/**
 * One operation over every input item, as a state machine. Each item is
 * pending, prepared, in flight, waiting to be sent again, done or failed.
 * The loop owns the order, the batches, the pacer and the retries; what an
 * item's request is and how it is sent come in from outside (LoopPorts), so
 * it runs, and is tested, without n8n.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../describe/types';
import { Dispatcher } from './dispatcher';
import type { Failure } from './failure';
import type { Epoch, RequestPacer } from './pacer';
import type { Quota } from './quota';
import type { RetryDecision, RetryPolicy } from './retry';
import { backoffMs, decideRetry } from './retry';
import type { EarlierTry } from './record';
import { RunReport } from './runReport';
import type { ServicePace } from './servicePace';
import { pushedBackLogLine, quotaLogLine } from './texts';
import type { Attempt } from './transport';

/** Why an item that got an answer, or a network fault, is not sent again. */
export type GiveUpReason = (RetryDecision & { retry: false })['reason'];

export type ItemFailure =
	/** Its request could not be made (bad input, a bad credential): nothing was sent. */
	| { kind: 'notSent'; error: unknown }
	/** The service answered with a failure, or the network failed, and the item is not sent again. */
	| { kind: 'gaveUp'; request: OutreachRequest; failure: Failure; sends: number; reason: GiveUpReason; askedMs?: number }
	/** Sending it threw. */
	| { kind: 'broken'; request: OutreachRequest; error: unknown; sends: number }
	/** An earlier try of this execution had it carried out, and its answer was too large to keep (record.ts): not sent again. */
	| { kind: 'carriedOutBefore'; request: OutreachRequest };

export type ItemState =
	| { state: 'pending' }
	| { state: 'prepared'; request: OutreachRequest; sends: 0 }
	| { state: 'inFlight'; request: OutreachRequest; sends: number }
	| { state: 'waiting'; request: OutreachRequest; sends: number }
	/** The service's answer; `sends` 0 when it came from an earlier try's record (record.ts). */
	| { state: 'done'; request: OutreachRequest; json: IDataObject; sends: number }
	| { state: 'failed'; failure: ItemFailure };

/** How items go out: in groups of `groupSize` in flight; with batching, one batch after another, `pauseMs` apart. */
export interface Pace {
	groupSize: number;
	pauseMs: number;
	batched: boolean;
}

export interface LoopSettings {
	pace: Pace;
	policy: RetryPolicy;
	/** The operation changes nothing, so it may be sent again after a 502, 504, reset or timeout. */
	readOnly: boolean;
	/** On Error = Stop: after a failure, no item after it is sent. */
	stopAtFirstFailure: boolean;
}

export interface LoopPorts {
	/** The service's pace, which this run shares with every other execution that talks to it. */
	pace: ServicePace;
	/** The item's request; throws when the item can't be sent. */
	prepare(index: number): OutreachRequest;
	/** What an earlier try of this execution did with exactly this request (record.ts); absent when none is known. */
	earlierTry?(index: number, request: OutreachRequest): EarlierTry | undefined;
	/** Sends a request once; a failure comes back as an Attempt, not thrown. */
	send(request: OutreachRequest): Promise<Attempt>;
	/** Whether the execution was stopped. */
	cancelled(): boolean;
	log(line: string): void;
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

export class RunLoop {
	readonly items: ItemState[];
	/** What slowed this run down (runReport.ts). */
	readonly report = new RunReport();
	private readonly pacer: RequestPacer;
	private readonly pace: ServicePace;
	/** The lowest index that failed, when the run stops at the first failure. */
	private stopIndex: number | undefined;
	/** Whether the service has answered any request of this run, with any status. */
	private serviceReached = false;

	constructor(
		count: number,
		private readonly settings: LoopSettings,
		private readonly ports: LoopPorts,
	) {
		this.items = Array.from({ length: count }, (): ItemState => ({ state: 'pending' }));
		this.pace = ports.pace;
		this.pacer = ports.pace.pacer;
	}

	/** The item On Error = Stop stops at: the lowest one that failed. */
	get firstFailure(): number | undefined {
		return this.stopIndex;
	}

	async run(): Promise<void> {
		const dispatcher = new Dispatcher(this.pace, (index) => this.isStopped(index), this.ports.sleep, (ms) => this.report.waited(ms));
		const heldBackBefore = this.pace.heldBackMs;
		try {
			await this.sendAll(dispatcher);
		} finally {
			this.report.heldBack(this.pace.heldBackMs - heldBackBefore);
		}
	}

	private async sendAll(dispatcher: Dispatcher): Promise<void> {
		const { pace } = this.settings;
		for (let next = 0; next < this.items.length && !this.runStopped(); ) {
			if (next > 0 && pace.pauseMs > 0) await this.ports.sleep(pace.pauseMs);
			const end = pace.batched ? Math.min(next + pace.groupSize, this.items.length) : this.items.length;
			const group = Array.from({ length: end - next }, (_, offset) => next + offset);
			next = end;
			await dispatcher.run(
				group,
				pace.groupSize,
				(index) => this.prepare(index),
				(index, ticket, remaining) => this.send(index, ticket, remaining),
			);
		}
	}

	/** Whether nothing more is to be sent: the execution was stopped, or an item failed and On Error stops. */
	private runStopped(): boolean {
		return this.ports.cancelled() || this.stopIndex !== undefined;
	}

	/** Whether this item is no longer to be sent. Items before a failed one still are, as they would have been in order. */
	private isStopped(index: number): boolean {
		return this.ports.cancelled() || (this.stopIndex !== undefined && index > this.stopIndex);
	}

	/** Makes an item's request once; an item whose request can't be made is never sent. */
	private prepare(index: number): boolean {
		const item = this.items[index];
		if (item.state !== 'pending') return item.state === 'prepared' || item.state === 'waiting';
		let request: OutreachRequest;
		try {
			request = this.ports.prepare(index);
		} catch (error) {
			this.fail(index, { kind: 'notSent', error });
			return false;
		}
		const earlier = this.ports.earlierTry?.(index, request);
		this.report.earlierTry(earlier);
		if (earlier?.kind === 'confirmed') {
			this.items[index] = { state: 'done', request, json: earlier.answer, sends: 0 };
			return false;
		}
		if (earlier?.kind === 'confirmedWithoutAnswer') {
			this.fail(index, { kind: 'carriedOutBefore', request });
			return false;
		}
		this.items[index] = { state: 'prepared', request, sends: 0 };
		return true;
	}

	/** Sends an item once; true when it is to be sent again. */
	private async send(index: number, ticket: Epoch, remaining: () => number): Promise<boolean> {
		const item = this.items[index];
		if (item.state !== 'prepared' && item.state !== 'waiting') return false;
		const sending = { state: 'inFlight' as const, request: item.request, sends: item.sends + 1 };
		this.items[index] = sending;
		let attempt: Attempt;
		try {
			attempt = await this.ports.send(sending.request);
		} catch (error) {
			this.fail(index, { kind: 'broken', request: sending.request, error, sends: sending.sends });
			return false;
		}
		if (attempt.ok || attempt.failure.kind === 'http') this.serviceReached = true;
		if (attempt.ok) {
			this.pacer.succeeded(ticket);
			this.items[index] = { state: 'done', request: sending.request, json: attempt.json, sends: sending.sends };
			if (attempt.quota) this.keepWithin(attempt.quota, ticket, remaining);
			return false;
		}
		return this.retryOrGiveUp(index, sending, attempt.failure, ticket, remaining);
	}

	/** A failed attempt: wait and send the item again, or fail it. */
	private retryOrGiveUp(
		index: number,
		item: ItemState & { state: 'inFlight' },
		failure: Failure,
		ticket: Epoch,
		remaining: () => number,
	): boolean {
		const slowdowns = this.pacer.consecutiveSlowdowns + (this.pacer.wouldStartSlowdown(ticket) ? 1 : 0);
		if (failure.kind === 'http' && (failure.status === 429 || failure.status === 503)) this.report.pushedBack();
		const decision = decideRetry(failure, {
			readOnly: this.settings.readOnly,
			policy: this.settings.policy,
			attempts: item.sends,
			backoffMs: backoffMs(slowdowns, this.ports.random()),
			serviceReached: this.serviceReached,
		});
		if (!decision.retry) {
			if (decision.reason !== 'notSafe') this.report.notSendingAgain(decision.reason);
			this.fail(index, { kind: 'gaveUp', request: item.request, failure, sends: item.sends, reason: decision.reason, askedMs: decision.waitMs });
			return false;
		}
		this.items[index] = { state: 'waiting', request: item.request, sends: item.sends };
		this.report.retrying(index);
		if (this.pacer.pushedBack(ticket, decision.waitMs)) {
			this.ports.log(pushedBackLogLine(failure, decision.waitMs, remaining(), this.pacer.inFlightLimit));
		}
		return true;
	}

	/**
	 * The service's rate-limit headers say its quota is used up, or that the
	 * requests still under way (this answer's own among them) may use up what
	 * is left: nothing new starts until it refills, and the pace slows as after
	 * a 429, though no request was rejected.
	 */
	private keepWithin(quota: Quota, ticket: Epoch, remaining: () => number): void {
		const othersUnderWay = this.pace.requestsInFlight - 1;
		if (quota.remaining > othersUnderWay) return;
		this.report.pushedBack();
		if (this.pacer.pushedBack(ticket, quota.resetMs)) {
			this.ports.log(quotaLogLine(quota, remaining(), this.pacer.inFlightLimit));
		}
	}

	private fail(index: number, failure: ItemFailure): void {
		this.items[index] = { state: 'failed', failure };
		if (this.settings.stopAtFirstFailure && (this.stopIndex === undefined || index < this.stopIndex)) this.stopIndex = index;
	}
}
